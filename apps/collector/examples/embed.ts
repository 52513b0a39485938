// examples/embed.ts: a collector in-process over a fresh SQLite file, one event posted, stopped.
// `kiro-learn start` does the same with settings from ~/.kiro-learn and KIRO_LEARN_*.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { createCollector, normalizeSettings } from 'kiro-learn';

const home = mkdtempSync(join(tmpdir(), 'kiro-learn-example-'));
const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
const collector = createCollector({ storage, settings: normalizeSettings({ port: 0 }, home) });

// The buffer's watcher hooks in here: one call per newly stored event.
collector.onEventStored((event) => console.log('stored', event.event_id, event.kind));

const { url } = await collector.listen();
const response = await fetch(`${url}/v1/events?retrieve=true`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({
    event_id: newEventId(),
    session_id: 'example',
    actor_id: 'dev',
    namespace: '/actor/dev/project/example/',
    schema_version: 1,
    kind: 'prompt',
    body: { type: 'text', content: 'Why does the Stripe webhook return 400?' },
    valid_time: new Date().toISOString(),
    source: { surface: 'api', version: '1', client_id: 'example' },
  }),
});
const reply = (await response.json()) as { stored?: boolean };
console.log(reply); // { event_id, stored: true, retrieval: { context: '', … } }
await collector.close(); // finishes requests, drains, closes the database
if (reply.stored !== true) process.exit(1);
