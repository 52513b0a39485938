// Statements per prompt on PostgreSQL: one collector over a fresh schema (2,000 records in
// one project), one developer's turns (four tool events, then a prompt with ?retrieve=true),
// and every statement the prompt's request sends to PostgreSQL, counted and printed: the
// first prompt of the session, then two more. Not part of `pnpm bench` (it measures no time).
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL, else a throwaway embedded one.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, newRecord } from '@kiro-learn/schema';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { createCollector, normalizeSettings } from 'kiro-learn';
import pg from 'pg';
import { phrase } from '../../../packages/retrieval/bench/corpus.ts';

const seen: string[] = [];
let on = false;
const orig = pg.Client.prototype.query as (...a: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: unknown }).query = function (
  this: unknown,
  ...a: unknown[]
) {
  if (on) {
    const q = a[0] as string | { text: string };
    seen.push((typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').slice(0, 110));
  }
  return orig.apply(this, a);
};
const server = await startTestPostgres();
const url = server.url;
const schema = freshSchema('count');
const storage = await openPostgresStorage({ url, schema });
const ns = '/actor/team/project/p0/';
const records = Array.from({ length: 2000 }, () =>
  newRecord({
    namespace: ns,
    strategy: 'bench',
    title: phrase(6),
    summary: phrase(30),
    facts: [phrase(12)],
    concepts: [phrase(1)],
    files_touched: [`src/${phrase(1)}.ts`],
    created_at: new Date(Date.now() - Math.random() * 90 * 86_400_000).toISOString(),
  }),
);
await storage.commitExtraction({ namespace: ns, records, eventIds: [] });
const home = mkdtempSync(join(tmpdir(), 'kl-count-'));
const settings = normalizeSettings({ port: 0, extraction: { mode: 'builtin' } }, home);
const collector = createCollector({ storage, settings });
const { port } = await collector.listen();
const send = async (kind: string, retrieve: boolean) => {
  const body = JSON.stringify({
    event_id: newEventId(),
    session_id: 'dev1-session',
    actor_id: 'team',
    namespace: ns,
    schema_version: 1,
    kind,
    body:
      kind === 'prompt'
        ? { type: 'text', content: `why does the ${phrase(5)} keep failing?` }
        : {
            type: 'json',
            data: {
              tool_name: 'fs_write',
              tool_input: { path: `src/${phrase(1)}.ts` },
              tool_response: { success: true },
            },
          },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'bench' },
  });
  const res = await fetch(`http://127.0.0.1:${port}/v1/events${retrieve ? '?retrieve=true' : ''}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  await res.text();
  await new Promise((r) => setTimeout(r, 300));
};
for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 4; j++) await send('tool_use', false);
  seen.length = 0;
  on = true;
  await send('prompt', true);
  on = false;
  console.log(
    `prompt ${i + 1} (${i === 0 ? 'new session' : 'known session'}): ${seen.length} statements`,
  );
  for (const s of seen) console.log('   ', s);
}
await collector.close();
await storage.close();
await server.stop();
