// Retrieval benchmark: POST /v1/events?retrieve=true end to end with BENCH_RECORDS
// records (default 100 000) in the prompt's project, semantic search on (the real
// all-MiniLM-L6-v2) and off, beside baselines measured in the same run: `node -e ''`
// start-up, a bare hono echo of the same requests, and the prompt's embedding alone.
// Also: the semantic collector's RSS, and record-embedding throughput with the time a
// reindex of 100 000 records would take (extrapolated from a measured sample: the bench
// says so). The record vectors are random unit vectors: the scan costs the same whatever
// they hold, and embedding 100 000 records first would take the bench hours.
// Prints median, p99 and the server's CPU time per request (all its threads, measured
// from /proc by process.cpuUsage: steadier than latency on a shared machine); asserts nothing. BENCH_PROJECTS=20 spreads the records over
// that many projects (the prompts still go to one of them). BENCH_DATA=<dir> builds the
// database there and keeps it, or reuses the one already there (the building figures are
// then left out); BENCH_MODES=lexical,stored measures only those servers; BENCH_PROFILE=<dir>
// writes a CPU profile of each server to <dir>/<mode>/ (read it with bench/profile-top.ts).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedder } from '@kiro-learn/embeddings';
import { embeddingText } from '@kiro-learn/retrieval';
import {
  buildNamespace,
  type MemoryRecord,
  newEventId,
  newRecordId,
  newUlid,
} from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { sql } from 'kysely';
import {
  httpRequest,
  nodeStarts,
  quantile,
  seededRandom,
  spawnServer,
  startIngestServer,
} from './harness.ts';

const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 100_000);
const PROJECTS = Number(process.env['BENCH_PROJECTS'] ?? 1);
const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 200);
const WARMUP = 20;
const SAMPLE = Number(process.env['BENCH_SAMPLE'] ?? 60);
const KEEP = process.env['BENCH_DATA'];
const MODES = (process.env['BENCH_MODES'] ?? 'lexical,semantic,fts5,stored').split(',');
const PROFILE_DIR = process.env['BENCH_PROFILE'];
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const random = seededRandom(7);
const TOPICS = [
  'stripe webhook signature',
  'postgres connection pool',
  'redis cache invalidation',
  'jwt refresh token rotation',
  'kafka consumer lag',
  'docker build cache',
  'react hydration error',
  'graphql n+1 query',
  'terraform state lock',
  'flaky integration test',
  'oauth callback url',
  'rate limiter burst',
  's3 presigned upload',
  'cron job timezone',
  'memory leak in worker',
  'css grid layout',
  'typescript strict null',
  'ci pipeline timeout',
  'dns propagation delay',
  'feature flag rollout',
  'database migration lock',
  'websocket reconnect',
  'email bounce handling',
];
const VERBS = [
  'fails',
  'times out',
  'breaks after deploy',
  'is slow',
  'returns 500',
  'leaks',
  'drifts',
  'retries forever',
];
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
function recordAt(i: number, namespace: string): MemoryRecord {
  const topic = pick(TOPICS);
  const time = Date.now() - Math.floor(random() * 365) * 86_400_000;
  return {
    record_id: newRecordId(time),
    namespace,
    strategy: 'bench',
    title: `${topic} ${pick(VERBS)} (#${i})`,
    summary: `When the ${topic} ${pick(VERBS)}, check the ${pick(TOPICS)} first; the ${pick(TOPICS)} was a red herring. Fixed by adjusting the configuration and adding a regression test.`,
    facts: [`${pick(TOPICS)} ${pick(VERBS)} under load`, `ticket ${Math.floor(random() * 1e6)}`],
    concepts: topic.split(' ').slice(0, 2),
    files_touched: [`src/${topic.split(' ')[0]}/index.ts`],
    observation_type: 'discovery',
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
  };
}
function unitVector(): Float32Array {
  const v = new Float32Array(384);
  let norm = 0;
  for (let d = 0; d < 384; d++) {
    v[d] = random() - 0.5;
    norm += v[d]! * v[d]!;
  }
  return v.map((x) => x / Math.sqrt(norm));
}
const prompts = Array.from(
  { length: REQUESTS + WARMUP },
  () => `why does the ${pick(TOPICS)} ${pick(VERBS)} again?`,
);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), p99: quantile(s, 0.99) };
};
const row = (what: string, s: { median: number; p99: number }, extra = '') =>
  console.log(
    `  ${what.padEnd(52)}${s.median.toFixed(2).padStart(10)}${s.p99.toFixed(2).padStart(10)}${extra}`,
  );

async function server(args: string[], nodeArgs: string[]) {
  const s = await spawnServer(args, { nodeArgs });
  return {
    port: Number(s.first),
    rssMb: () => s.rssMb(),
    mark: () => s.child.kill('SIGUSR2'),
    /** Stops it; resolves to the CPU microseconds it used since `mark`. */
    async stop() {
      const cpu = s.nextLine();
      await s.stop();
      return Number(await cpu);
    },
  };
}

const post = async (agent: Agent, port: number, path: string, body: string) =>
  (await httpRequest(port, 'POST', path, { agent, body })).text;

// Each server's prompts come from sessions of their own: a session seen by an earlier
// server (or run, with BENCH_DATA) would hold the records it was shown and skip them.
const RUN = Date.now().toString(36);
async function measure(
  port: number,
  namespace: string,
  mark: () => void,
  query: string,
  sessions: string,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms: number[] = [];
  let withContext = 0;
  for (const [i, prompt] of prompts.entries()) {
    const body = JSON.stringify({
      event_id: newEventId(),
      session_id: `bench-${sessions}-${RUN}-${i}`,
      actor_id: 'dev',
      namespace,
      schema_version: 1,
      kind: 'prompt',
      body: { type: 'text', content: prompt },
      valid_time: new Date().toISOString(),
      source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'bench' },
    });
    if (i === WARMUP) mark();
    const t = performance.now();
    const reply = await post(agent, port, `/v1/events${query}`, body);
    if (i >= WARMUP) {
      ms.push(performance.now() - t);
      if (reply.includes('"context":"## Prior')) withContext++;
    }
  }
  agent.destroy();
  return { ...stats(ms), withContext };
}

const startLoad = loadavg()[0]!.toFixed(1);
const nodeStart = nodeStarts(10);
const home = KEEP ?? mkdtempSync(join(tmpdir(), 'kl-bench-retrieve-'));
const reuse = KEEP !== undefined && existsSync(join(KEEP, 'kiro-learn.db'));
try {
  const namespaces = Array.from({ length: PROJECTS }, (_, p) =>
    buildNamespace('dev', `bench-${p}`),
  );
  const target = namespaces[0]!;
  const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  const loadStarted = performance.now();
  const embedder = await loadEmbedder();
  for (let i = 0; i < (reuse ? 0 : RECORDS); i += 1000) {
    const batch = Array.from({ length: Math.min(1000, RECORDS - i) }, (_, j) =>
      recordAt(i + j, namespaces[(i + j) % PROJECTS]!),
    );
    await Promise.all(batch.map((r) => storage.putRecord(r)));
    await storage.putVectors(
      embedder.modelId,
      batch.map((r) => ({ recordId: r.record_id, vector: unitVector() })),
    );
  }
  // The impact-ordered search table takes the records in the background: measured once
  // it has them all (a search falls back to FTS5 scoring while it does not).
  while ((await storage.impactBacklog()) > 0) await new Promise((r) => setTimeout(r, 200));
  const loadS = (performance.now() - loadStarted) / 1000;
  const { rows: sizes } = await sql<{ impact: number; all: number }>`
    SELECT sum(CASE WHEN name LIKE 'impact%' THEN pgsize ELSE 0 END) AS impact, sum(pgsize) AS "all"
    FROM dbstat`.execute(storage.db);
  const sizeMb = { impact: sizes[0]!.impact / 1e6, all: sizes[0]!.all / 1e6 };
  // Embedding alone, and record throughput (the reindex sample), with the same model.
  const promptMs: number[] = [];
  for (const prompt of prompts.slice(0, 60)) {
    const t = performance.now();
    await embedder.embed([prompt], { purpose: 'query' });
    promptMs.push(performance.now() - t);
  }
  const sample = (await storage.listRecords({ limit: SAMPLE })).items;
  const t = performance.now();
  await embedder.embed(sample.map(embeddingText));
  const perSecond = sample.length / ((performance.now() - t) / 1000);
  await embedder.close();
  await storage.close();

  const echo = await startIngestServer('echo');
  const echoMs: number[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (const [i, prompt] of prompts.entries()) {
    if (i === WARMUP) echo.mark();
    const t0 = performance.now();
    await post(agent, echo.port, '/v1/events', JSON.stringify({ prompt }));
    echoMs.push(performance.now() - t0);
  }
  agent.destroy();
  const echoCpu = (await echo.stop()) / REQUESTS;
  const results: Record<
    string,
    Awaited<ReturnType<typeof measure>> & { rss: number; cpu: number }
  > = {};
  for (const mode of ['lexical', 'semantic', 'fts5', 'stored'] as const) {
    if (!MODES.includes(mode)) continue;
    if (mode === 'fts5') process.env['BENCH_IMPACT_MIN_POSTINGS'] = 'Infinity';
    const profile = PROFILE_DIR ? `${PROFILE_DIR}/${mode}` : undefined;
    if (profile) mkdirSync(profile, { recursive: true });
    const s = await server(
      [here('./retrieve-server.ts'), home, mode === 'semantic' ? mode : 'lexical'],
      profile ? ['--cpu-prof', '--cpu-prof-interval=250', `--cpu-prof-dir=${profile}`] : [],
    );
    delete process.env['BENCH_IMPACT_MIN_POSTINGS'];
    const r = await measure(
      s.port,
      target,
      s.mark,
      mode === 'stored' ? '' : '?retrieve=true',
      mode,
    );
    const rss = s.rssMb();
    results[mode] = { ...r, rss, cpu: (await s.stop()) / REQUESTS };
  }

  console.log(
    `POST /v1/events?retrieve=true, ${RECORDS.toLocaleString('en')} records over ${PROJECTS} project(s), ${REQUESTS} prompts, one client (ms)\n`,
  );
  console.log(
    `  ${'what'.padEnd(52)}${'median'.padStart(10)}${'p99'.padStart(10)}${'server CPU/req'.padStart(16)}`,
  );
  const cpu = (us: number) => `${(us / 1000).toFixed(2)} ms`.padStart(16);
  row("baseline: node -e '' start-up", stats(nodeStart));
  row('baseline: bare HTTP echo of a POST', stats(echoMs.slice(WARMUP)), cpu(echoCpu));
  row('prompt embedding alone (in this process)', stats(promptMs));
  const lines = [
    ['stored', 'baseline: the prompt stored, no retrieval'],
    ['fts5', 'retrieve, lexical, FTS5 scoring every hit (before)'],
    ['lexical', 'retrieve, lexical only (semantic off)'],
    ['semantic', 'retrieve, hybrid (semantic on)'],
  ] as const;
  for (const [mode, what] of lines) {
    const r = results[mode];
    if (r) row(what, r, cpu(r.cpu));
  }
  const { stored, lexical, fts5, semantic } = results;
  if (stored && lexical) {
    console.log(
      `\n  lexical retrieval's server CPU above the stored prompt: ${((lexical.cpu - stored.cpu) / 1000).toFixed(2)} ms a prompt`,
    );
  }
  const given = [
    lexical && `lexical ${lexical.withContext}`,
    fts5 && `FTS5 scoring ${fts5.withContext}`,
    semantic && `hybrid ${semantic.withContext}`,
  ].filter(Boolean);
  if (given.length > 0) console.log(`  prompts given context: ${given.join(', ')} of ${REQUESTS}`);
  const rss = [
    lexical && `lexical ${lexical.rss.toFixed(0)} MB`,
    semantic && `semantic (model loaded) ${semantic.rss.toFixed(0)} MB`,
  ].filter(Boolean);
  if (rss.length > 0) console.log(`  collector RSS after the run: ${rss.join(', ')}`);
  console.log(
    `  record embedding: ${perSecond.toFixed(1)} records/s (sample of ${sample.length}); reindex of 100,000 records ≈ ${(100_000 / perSecond / 60).toFixed(0)} min (extrapolated from the sample)`,
  );
  console.log(
    `  database: ${sizeMb.all.toFixed(0)} MB, of which the impact-ordered search table ${sizeMb.impact.toFixed(0)} MB (its rows and its rid index)`,
  );
  console.log(
    `  building the database: ${reuse ? 'reused' : `${loadS.toFixed(0)} s`}; machine: ${process.arch}, Node ${process.version}, shared with other jobs (load average ${startLoad} at the start, ${loadavg()[0]!.toFixed(1)} at the end)`,
  );
} finally {
  if (!KEEP) rmSync(home, { recursive: true, force: true });
}
