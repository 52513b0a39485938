// Team server load test: N simulated developers against one team server (the collector
// over PostgreSQL) with one and with two collectors, lexical and semantic, and a bare echo
// with the same generator as the baseline, all in the same run on this machine (loopback
// only). Each developer is an open-loop stream of hook events, one every 2 s (a turn: a
// prompt with ?retrieve=true, then four tool events; each developer starts at a random
// point of its turn, so prompts arrive evenly), in one of 20 projects holding 20,000
// records between them (words from the retrieval bench's Zipf corpus; random unit vectors for the semantic runs: the prompt's embedding
// and the vector scan are real). N ramps up in steps of BENCH_STEP_MS (default 6000, the
// first second of each left out) until retrieval p99 crosses 500 ms or more than 1 % of
// requests fail: that N is the knee. Each configuration first runs one step at the first N
// that is printed (`cold`) and not judged: right after start every project's first
// prompts fill caches (vectors, term statistics) and the first step crossed 500 ms at 25
// developers where the next one, at the same N, answered in 58 ms. Semantic runs also report the first N at which more
// than 1 % of prompts were answered lexical only (the semantic share of the budget ran
// out: `kiro_learn_retrieval_semantic_total{outcome="timed_out"}`). Every step is bounded
// in time and requests; the ramp stops at the knee. PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL
// (a fresh database, dropped after), else a throwaway embedded PostgreSQL. Asserts nothing.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MODEL_ID } from '@kiro-learn/embeddings';
import { type MemoryRecord, newEventId, newRecord } from '@kiro-learn/schema';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { phrase } from '../../../packages/retrieval/bench/corpus.ts';

const STEP_MS = Number(process.env['BENCH_STEP_MS'] ?? 6000);
const WARM_MS = 1000;
const STEPS = (process.env['BENCH_DEVELOPERS'] ?? '25,50,100,250,500,1000,1500,2000')
  .split(',')
  .map(Number);
const PROJECTS = 20;
const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 20_000);
const EVENT_EVERY_MS = 2000;
/** Events in a developer's turn: a prompt, then four tool events. */
const TURN = 5;
const KNEE_P99_MS = 500;
const KNEE_ERRORS = 0.01;
/** Requests a step may leave outstanding: past it the generator counts an error, not a send. */
const MAX_OUTSTANDING = 4000;
const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
// Records and prompts in the retrieval bench's Zipf-distributed 30k-word vocabulary: a few
// common words, many rare ones, as a real project's memory has.
const pick = () => phrase(1);
const namespaceOf = (project: number) => `/actor/team/project/p${project}/`;

function record(project: number): MemoryRecord {
  return newRecord({
    namespace: namespaceOf(project),
    strategy: 'bench',
    title: phrase(6),
    summary: phrase(30),
    facts: [phrase(12), phrase(12)],
    concepts: [pick(), pick()],
    files_touched: [`src/${pick()}/${pick()}.ts`],
    created_at: new Date(Date.now() - Math.random() * 90 * 86_400_000).toISOString(),
  });
}

function unitVector(): Float32Array {
  const v = Float32Array.from({ length: 384 }, () => Math.random() - 0.5);
  let norm = 0;
  for (const x of v) norm += x * x;
  for (let i = 0; i < v.length; i++) v[i]! /= Math.sqrt(norm);
  return v;
}

function event(developer: number, n: number): { body: string; prompt: boolean } {
  const prompt = n % TURN === 0;
  return {
    prompt,
    body: JSON.stringify({
      event_id: newEventId(),
      session_id: `dev${developer}-session`,
      actor_id: 'team',
      namespace: namespaceOf(developer % PROJECTS),
      schema_version: 1,
      kind: prompt ? 'prompt' : 'tool_use',
      body: prompt
        ? { type: 'text', content: `why does the ${phrase(5)} keep failing?` }
        : {
            type: 'json',
            data: {
              tool_name: 'fs_write',
              tool_input: { path: `src/${pick()}.ts`, summary: phrase(8) },
              tool_response: { success: true },
            },
          },
      valid_time: new Date().toISOString(),
      source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'bench' },
    }),
  };
}

interface Server {
  port: number;
  stop(): Promise<void>;
}

async function startServer(mode: string, env: NodeJS.ProcessEnv, script = SERVER): Promise<Server> {
  const child = spawn(process.execPath, [...process.execArgv, script, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim().split('\n')[0])));
    child.once('exit', () => reject(new Error(`${mode} server exited`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function post(agent: Agent, port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        timeout: 10_000,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** The semantic share's outcomes so far, summed over the servers' /metrics. */
async function semanticCounts(servers: Server[]): Promise<{ used: number; timedOut: number }> {
  let used = 0;
  let timedOut = 0;
  for (const { port } of servers) {
    const text = await fetch(`http://127.0.0.1:${port}/metrics`)
      .then((r) => r.text())
      .catch(() => '');
    const count = (outcome: string) =>
      Number(
        new RegExp(`kiro_learn_retrieval_semantic_total\\{outcome="${outcome}"\\} (\\d+)`).exec(
          text,
        )?.[1] ?? 0,
      );
    used += count('used');
    timedOut += count('timed_out') + count('failed');
  }
  return { used, timedOut };
}

interface Step {
  developers: number;
  eventsPerSecond: number;
  retrievalP50: number;
  retrievalP99: number;
  eventP99: number;
  errors: number;
  requests: number;
  lexicalOnly: number;
  prompts: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

/** One step: `developers` open-loop streams for STEP_MS, spread over the servers. */
async function step(servers: Server[], developers: number): Promise<Step> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const before = await semanticCounts(servers);
  const started = performance.now();
  const warmEnd = started + WARM_MS;
  const end = started + STEP_MS;
  const next = Array.from({ length: developers }, () => started + Math.random() * EVENT_EVERY_MS);
  // Where each developer is in its turn (a prompt, then four tool events) starts at random:
  // when every stream started with its prompt, every prompt of a step fell in its first two
  // seconds (at 250 developers 125 prompts a second, five times the rate the step stands
  // for, then none), and the warm-up second left out half of them.
  const sent = Array.from({ length: developers }, () => Math.floor(Math.random() * TURN));
  const retrieval: number[] = [];
  const events: number[] = [];
  let errors = 0;
  let requests = 0;
  let outstanding = 0;
  const inFlight = new Set<Promise<void>>();
  while (performance.now() < end) {
    const now = performance.now();
    for (let d = 0; d < developers; d++) {
      if (next[d]! > now) continue;
      const due = next[d]!;
      next[d]! += EVENT_EVERY_MS;
      const { body, prompt } = event(d, sent[d]!++);
      const counted = due >= warmEnd;
      if (counted) requests++;
      if (outstanding >= MAX_OUTSTANDING) {
        if (counted) errors++;
        continue;
      }
      outstanding++;
      const { port } = servers[d % servers.length]!;
      const job = post(agent, port, prompt ? '/v1/events?retrieve=true' : '/v1/events', body).then(
        (status) => {
          outstanding--;
          // Open loop: latency from when the event was due, not from when it was sent.
          const ms = performance.now() - due;
          if (!counted) return;
          if (status !== 200) errors++;
          else (prompt ? retrieval : events).push(ms);
        },
      );
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const after = await semanticCounts(servers);
  return {
    developers,
    eventsPerSecond: (retrieval.length + events.length) / ((STEP_MS - WARM_MS) / 1000),
    retrievalP50: quantile(retrieval, 0.5),
    retrievalP99: quantile(retrieval, 0.99),
    eventP99: quantile(events, 0.99),
    errors,
    requests,
    lexicalOnly: after.timedOut - before.timedOut,
    prompts: after.used + after.timedOut - before.used - before.timedOut,
  };
}

const pg = await startTestPostgres();
try {
  const schema = freshSchema('load');
  const seeding = performance.now();
  const storage = await openPostgresStorage({ url: pg.url, schema });
  for (let p = 0; p < PROJECTS; p++) {
    const records = Array.from({ length: Math.round(RECORDS / PROJECTS) }, () => record(p));
    for (let i = 0; i < records.length; i += 500) {
      const chunk = records.slice(i, i + 500);
      await storage.commitExtraction({ namespace: namespaceOf(p), records: chunk, eventIds: [] });
      await storage.putVectors(
        DEFAULT_MODEL_ID,
        chunk.map((r) => ({ recordId: r.record_id, vector: unitVector() })),
      );
    }
  }
  await storage.close();
  const env = (semantic: boolean) => ({
    BENCH_POSTGRES_URL: pg.url,
    BENCH_POSTGRES_SCHEMA: schema,
    BENCH_SEMANTIC: semantic ? '1' : '0',
  });
  /** `count` collectors on the team database, started one after the other. */
  const collectors =
    (count: number, semantic: boolean, script = SERVER) =>
    async () => {
      const servers: Server[] = [];
      for (let i = 0; i < count; i++) {
        servers.push(await startServer('postgres', env(semantic), script));
      }
      return servers;
    };
  // BENCH_BEFORE=<another checkout's bench/server.ts>: its collector (that build, e.g. main's)
  // runs each lexical configuration right after this one, on the same database, so a
  // before/after is measured under the same load; BENCH_ROUNDS repeats the whole list.
  const before = process.env['BENCH_BEFORE'];
  type Config = [string, boolean, () => Promise<Server[]>];
  const configs: Config[] = [
    ['echo (baseline)', false, async () => [await startServer('echo', {})]],
    ['lexical, 1 collector', false, collectors(1, false)],
    ...(before
      ? [['lexical, 1 collector (before)', false, collectors(1, false, before)] satisfies Config]
      : []),
    ['lexical, 2 collectors', false, collectors(2, false)],
    ...(before
      ? [['lexical, 2 collectors (before)', false, collectors(2, false, before)] satisfies Config]
      : []),
    ['semantic, 1 collector', true, collectors(1, true)],
    ['semantic, 2 collectors', true, collectors(2, true)],
  ];
  const rounds = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 1));
  console.log(
    `Team server load test: ${RECORDS} records in ${PROJECTS} projects (seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s), one event per developer every ${EVENT_EVERY_MS / 1000} s, a retrieval per prompt (every 5th event), ${STEP_MS / 1000} s per step; PostgreSQL from ${pg.source}; Node ${process.version}; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  const f = (n: number, width = 8, digits = 0) => n.toFixed(digits).padStart(width);
  const summary: string[] = [];
  // BENCH_CONFIGS='echo|lexical, 1' runs only the configurations whose name contains one of them.
  const only = process.env['BENCH_CONFIGS']?.split('|');
  for (let round = 1; round <= rounds; round++)
    for (const [name, semantic, start] of configs) {
      if (only && !only.some((part) => name.includes(part))) continue;
      console.log(
        `\n  ${name}${rounds > 1 ? `, round ${round}` : ''} (load average ${loadavg()[0]!.toFixed(1)})`,
      );
      console.log('    developers  events/s  retr p50  retr p99  event p99  errors  lexical-only');
      const servers = await start();
      let knee: number | undefined;
      let fallback: number | undefined;
      let last = 0;
      try {
        const cold = await step(servers, STEPS[0]!);
        console.log(
          `    ${f(cold.developers, 10)}${f(cold.eventsPerSecond, 10)}${f(cold.retrievalP50, 10)}${f(cold.retrievalP99, 10)}${f(cold.eventP99, 11)}${f((cold.errors / Math.max(1, cold.requests)) * 100, 7, 1)}%${semantic ? `${f((cold.lexicalOnly / Math.max(1, cold.prompts)) * 100, 12, 1)}%` : '             -'}  (cold: not judged)`,
        );
        for (const developers of STEPS) {
          const s = await step(servers, developers);
          const errorShare = s.errors / Math.max(1, s.requests);
          const lexicalShare = s.lexicalOnly / Math.max(1, s.prompts);
          console.log(
            `    ${f(developers, 10)}${f(s.eventsPerSecond, 10)}${f(s.retrievalP50, 10)}${f(s.retrievalP99, 10)}${f(s.eventP99, 11)}${f(errorShare * 100, 7, 1)}%${semantic ? `${f(lexicalShare * 100, 12, 1)}%` : '             -'}`,
          );
          if (semantic && fallback === undefined && lexicalShare > KNEE_ERRORS)
            fallback = developers;
          if (s.retrievalP99 > KNEE_P99_MS || errorShare > KNEE_ERRORS) {
            knee = developers;
            break;
          }
          last = developers;
        }
      } finally {
        for (const server of servers) await server.stop();
      }
      summary.push(
        `  ${`${name}${rounds > 1 ? ` #${round}` : ''}`.padEnd(24)} ${knee === undefined ? `held every step (to ${last})` : `knee at ${knee} developers (held ${last || 'none'})`}${semantic ? `; lexical-only answers above 1 % from ${fallback ?? 'no step'}` : ''}`,
      );
    }
  console.log(`\nKnee (retrieval p99 > ${KNEE_P99_MS} ms or > 1 % errors):`);
  for (const line of summary) console.log(line);
  console.log(`\nload average at the end: ${loadavg()[0]!.toFixed(1)} (2 cores, shared)`);
} finally {
  await pg.stop();
}
