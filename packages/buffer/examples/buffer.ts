// examples/buffer.ts: the buffer wired as the collector does it (store, notify, extract in the background).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCompactionOptions, createBuffer } from '@kiro-learn/buffer';
import { createExtractor } from '@kiro-learn/extractor';
import { type Event, newEventId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-example-'));
const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
const extractor = createExtractor(); // ACP compressor if installed, else built-in rules
// Compaction settings as a settings file gives them: checked first, one line per problem.
const compaction = { maxPromptTokens: 50_000, retention: { note: 'drop' as const } };
const problems = checkCompactionOptions(compaction, 'buffer.compaction');
if (problems.length > 0) throw new Error(problems.join('\n'));
const buffer = createBuffer({
  storage,
  extract: (batch) => extractor.extract(batch),
  // The ACP extractor summarizes with its agent; the built-in one has no summarize, and the
  // buffer then uses its model-free summarizer.
  summarize: extractor.summarize,
  compaction,
  extractorName: extractor.name,
  options: { idleMs: 30_000 },
  onError: (error) => console.error('buffer:', error),
});
let extracted = 0;
buffer.onExtraction((run) => {
  console.log(`${run.namespace}: ${run.status}, ${run.records} records (${run.trigger})`);
  extracted += run.records;
});
await buffer.start(); // re-arms projects left pending by the last run

async function ingest(event: Event): Promise<void> {
  const { stored } = await storage.putEvent(event, { pending: buffer.accepts(event.namespace) });
  if (stored) buffer.notify(event);
}

const namespace = '/actor/dev/project/demo/';
for (const [kind, content] of [
  ['prompt', 'Rename the config loader'],
  ['session_summary', 'Renamed loadConfig to readSettings in src/config.ts.'],
] as const) {
  await ingest({
    event_id: newEventId(),
    session_id: 'session-1',
    actor_id: 'dev',
    namespace,
    schema_version: 1,
    kind,
    body: { type: 'text', content },
    valid_time: new Date().toISOString(),
    source: { surface: 'api', version: '1', client_id: 'example' },
  });
}
console.log(buffer.status().projects);
console.log(await buffer.compactionStatus(namespace)); // summary chain head, passes, exhausted
await buffer.drain(); // on shutdown: stop the watchers, finish runs in flight
await storage.close();
if (extracted === 0) process.exit(1); // the session summary ended the turn: extracted
