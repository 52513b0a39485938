// The first prompt after a (re)start: its retrieval time (the collector's latency_ms) in a
// fresh collector process, with the start-up warm-up the daemon runs and without it,
// beside the same collector's steady state, over BENCH_RECORDS records (default 2 000) in
// the prompt's project. Semantic off (lexical; also what a prompt gets while the model is
// still loading) and on (the first prompt once the model is loaded). Restarts are
// interleaved (cold, warm, cold, …) so machine load hits both alike; the load average is
// printed. Prints median and max over BENCH_ROUNDS restarts; asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedder } from '@kiro-learn/embeddings';
import { buildNamespace, type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 2000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const STEADY = 10;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const TOPICS = [
  'stripe webhook signature',
  'postgres connection pool',
  'redis cache',
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
  return {
    record_id: newRecordId(Date.now() - i * 60_000),
    namespace,
    strategy: 'bench',
    title: `${topic} fails after deploy (#${i})`,
    summary: `When the ${topic} fails, check the configuration first. Fixed with a regression test (#${i}).`,
    facts: [`${topic} fails under load`],
    concepts: topic.split(' ').slice(0, 2),
    files_touched: [`src/${topic.split(' ')[0]}/index.ts`],
    observation_type: 'discovery',
    source_event_ids: [newEventId()],
    created_at: new Date(Date.now() - i * 60_000).toISOString(),
  };
}

async function server(home: string, mode: string, warmth: string) {
  const child = spawn(process.execPath, [here('./first-retrieval-server.ts'), home, mode, warmth], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { port, stop };
}

async function prompt(port: number, i: number, session: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/events?retrieve=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      event_id: newEventId(),
      session_id: session,
      actor_id: 'dev',
      namespace,
      schema_version: 1,
      kind: 'prompt',
      body: {
        type: 'text',
        content: `why does the ${TOPICS[i % TOPICS.length]} fail after the deploy?`,
      },
      valid_time: new Date().toISOString(),
      source: { surface: 'claude-code', version: '0', client_id: 'bench' },
    }),
  });
  const answer = (await response.json()) as {
    retrieval?: { latency_ms: number; records: string[] };
  };
  if (!answer.retrieval?.records.length) throw new Error('the prompt found no records');
  return answer.retrieval.latency_ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
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
  const results: Record<string, { first: number[]; steady: number[] }> = {};
  const loadBefore = load();
  for (const mode of ['lexical', 'semantic'] as const) {
    for (let round = 0; round < ROUNDS; round++) {
      for (const warmth of ['cold', 'warm'] as const) {
        const t = performance.now();
        spawnSync(process.execPath, ['-e', '']);
        nodeStart.push(performance.now() - t);
        const s = await server(home, mode, warmth);
        if (mode === 'semantic') {
          for (;;) {
            const status = (await (await fetch(`http://127.0.0.1:${s.port}/v1/status`)).json()) as {
              semantic: { state: string };
            };
            if (status.semantic.state !== 'loading') break;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        const key = `${mode}, ${warmth === 'warm' ? 'with the warm-up' : 'no warm-up'}`;
        results[key] ??= { first: [], steady: [] };
        // A session of its own for each prompt: none of them has seen a record yet.
        const session = (i: number) => `${mode}-${warmth}-${round}-${i}`;
        results[key].first.push(await prompt(s.port, round, session(0)));
        for (let i = 1; i <= STEADY; i++) {
          results[key].steady.push(await prompt(s.port, round + i, session(i)));
        }
        await s.stop();
      }
    }
  }
  console.log(
    `first retrieval after a start: ${RECORDS.toLocaleString('en')} records, ${ROUNDS} restarts per row, interleaved`,
  );
  console.log(
    `load average before ${loadBefore}, after ${load()}; node -e '' median ${median(nodeStart).toFixed(0)} ms`,
  );
  console.log(
    `  ${'collector'.padEnd(36)}${'first: median'.padStart(15)}${'max'.padStart(9)}${'steady median'.padStart(16)}`,
  );
  for (const [key, r] of Object.entries(results)) {
    console.log(
      `  ${key.padEnd(36)}${median(r.first).toFixed(1).padStart(12)} ms${Math.max(...r.first)
        .toFixed(1)
        .padStart(6)} ms${median(r.steady).toFixed(1).padStart(13)} ms`,
    );
  }
  console.log('  (retrieval latency_ms as the collector measures it; the budget is 500 ms)');
} finally {
  rmSync(home, { recursive: true, force: true });
}
