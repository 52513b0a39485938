// The first prompt after a (re)start: its retrieval time (the collector's latency_ms) in a
// fresh collector process, with the start-up warm-up the daemon runs and without it,
// beside the same process's steady state, over BENCH_RECORDS records (default 2 000) in
// the prompt's project. Semantic off (lexical: also what a prompt gets while the model is
// still loading) and on (the first prompt once the model has loaded). Restarts alternate
// (no warm-up, warm-up, …) so machine load hits both alike; the load average is printed.
// Median and max over BENCH_ROUNDS restarts; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedder } from '@kiro-learn/embeddings';
import { buildNamespace, type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { httpRequest, quantile, spawnServer } from './harness.ts';

const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 2000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const STEADY = 10;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const TOPICS = [
  'stripe webhook signature',
  'postgres connection pool',
  'redis cache invalidation',
  'jwt refresh token',
  'flaky integration test',
  'ci pipeline timeout',
  'database migration lock',
];
const namespace = buildNamespace('dev', 'first-retrieval');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function record(i: number): MemoryRecord {
  const topic = TOPICS[i % TOPICS.length]!;
  const time = Date.now() - i * 60_000;
  return {
    record_id: newRecordId(time),
    namespace,
    strategy: 'bench',
    title: `${topic} fails after deploy (#${i})`,
    summary: `When the ${topic} fails, check its configuration first; fixed with a regression test (#${i}).`,
    facts: [`${topic} fails under load`],
    concepts: topic.split(' ').slice(0, 2),
    files_touched: [`src/${topic.split(' ')[0]}/index.ts`],
    observation_type: 'discovery',
    source_event_ids: [newEventId()],
    created_at: new Date(time).toISOString(),
  };
}

/**
 * One prompt in a session of its own (none has seen a record yet): its retrieval ms, and
 * whether it came back empty (the budget ran out first).
 */
async function prompt(
  port: number,
  topic: number,
  session: string,
): Promise<{ ms: number; empty: boolean }> {
  const { text } = await httpRequest(port, 'POST', '/v1/events?retrieve=true', {
    body: JSON.stringify({
      event_id: newEventId(),
      session_id: session,
      actor_id: 'dev',
      namespace,
      schema_version: 1,
      kind: 'prompt',
      body: {
        type: 'text',
        content: `why does the ${TOPICS[topic % TOPICS.length]} fail after the deploy?`,
      },
      valid_time: new Date().toISOString(),
      source: { surface: 'claude-code', version: '0', client_id: 'bench' },
    }),
  });
  const answer = JSON.parse(text) as { retrieval?: { latency_ms: number; records: string[] } };
  if (!answer.retrieval) throw new Error(`no retrieval: ${text}`);
  return { ms: answer.retrieval.latency_ms, empty: answer.retrieval.records.length === 0 };
}

const home = mkdtempSync(join(tmpdir(), 'kl-bench-first-'));
try {
  const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  const embedder = await loadEmbedder();
  for (let i = 0; i < RECORDS; i += 500) {
    const batch = Array.from({ length: Math.min(500, RECORDS - i) }, (_, j) => record(i + j));
    await Promise.all(batch.map((r) => storage.putRecord(r)));
    // Random unit vectors: a scan costs the same whatever they hold.
    await storage.putVectors(
      embedder.modelId,
      batch.map((r) => {
        const v = new Float32Array(384).map(() => Math.random() - 0.5);
        const norm = Math.hypot(...v);
        return { recordId: r.record_id, vector: v.map((x) => x / norm) };
      }),
    );
  }
  await embedder.close();
  await storage.close();

  const nodeStart: number[] = [];
  const results = new Map<string, { first: number[]; steady: number[]; empty: number }>();
  const loadBefore = load();
  for (const mode of ['lexical', 'semantic'] as const) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const warmth of ['cold', 'warm'] as const) {
        const t = performance.now();
        spawnSync(process.execPath, ['-e', '']);
        nodeStart.push(performance.now() - t);
        const server = await spawnServer([here('./retrieve-server.ts'), home, mode, warmth]);
        try {
          const port = Number(server.first);
          const key = `${mode}, ${warmth === 'warm' ? 'with the warm-up' : 'no warm-up'}`;
          const r = results.get(key) ?? { first: [], steady: [], empty: 0 };
          results.set(key, r);
          const session = (i: number) => `${mode}-${warmth}-${round}-${i}`;
          const first = await prompt(port, round, session(0));
          r.first.push(first.ms);
          if (first.empty) r.empty++;
          for (let i = 1; i <= STEADY; i++) {
            r.steady.push((await prompt(port, round + i, session(i))).ms);
          }
        } finally {
          await server.stop();
        }
      }
    }
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  console.log(
    `first retrieval after a start: ${RECORDS.toLocaleString('en')} records, ${ROUNDS} restarts per row, alternating`,
  );
  console.log(
    `load average before ${loadBefore}, after ${load()}; node -e '' median ${quantile(sorted(nodeStart), 0.5).toFixed(0)} ms`,
  );
  console.log(
    `  ${'collector'.padEnd(30)}${'first: median'.padStart(15)}${'max'.padStart(11)}${'empty'.padStart(7)}${'steady median'.padStart(16)}`,
  );
  for (const [key, r] of results) {
    const first = sorted(r.first);
    console.log(
      `  ${key.padEnd(30)}${quantile(first, 0.5).toFixed(1).padStart(12)} ms${first.at(-1)!.toFixed(1).padStart(8)} ms${String(r.empty).padStart(7)}${quantile(sorted(r.steady), 0.5).toFixed(1).padStart(13)} ms`,
    );
  }
  console.log(
    '  (retrieval latency_ms as the collector measures it; the budget is 500 ms: "empty" first prompts ran out of it)',
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
