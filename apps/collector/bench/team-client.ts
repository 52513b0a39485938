// Team memory on developers' machines (issue #18, client side), every collector a real
// `kiro-learn start --foreground` process over loopback: a team server (SQLite), Alice's
// collector and two of Bob's over the same data, one joined to the team and one local-only
// (the baseline, measured in the same run, interleaved). Prints:
//   - prompt retrieval latency (POST /v1/events?retrieve=true, client wall time and the
//     collector's own latency_ms) with team search against local-only, p50 and p99;
//   - the agent's memory search (GET /v1/memories/search) likewise;
//   - outbox throughput: Alice's backlog of BENCH_RECORDS shared records drained to the
//     server, against a bare sequential keep-alive PUT loop of as many records (baseline);
//   - time from the end of Alice's turn (its extraction) to the record in Bob's context.
// Lexical retrieval (no embedding model) and the built-in extractor. Asserts nothing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { openSqliteStorage } from '@kiro-learn/storage';
import { httpRequest, seededRandom } from './harness.ts';

const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 2000);
const PROMPTS = Number(process.env['BENCH_REQUESTS'] ?? 200);
const HANDOFFS = Number(process.env['BENCH_HANDOFFS'] ?? 10);
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const REMOTE = 'git@github.com:acme/payments-api.git';

const random = seededRandom(11);
// Diverse enough that no topic word is in a fifth of the records (search drops such words).
const SUBJECTS = [
  'stripe webhook',
  'postgres pool',
  'redis cache',
  'kafka consumer',
  'terraform state',
  'integration test',
  'rate limiter',
  'cron job',
  'schema migration',
  'invoice pdf',
  'oauth callback',
  'docker build',
  'graphql resolver',
  'websocket reconnect',
  's3 upload',
  'feature flag',
];
const ASPECTS = ['signature', 'timeout', 'lock', 'rounding', 'retry', 'encoding'];
const TOPICS = SUBJECTS.flatMap((subject) => ASPECTS.map((aspect) => `${subject} ${aspect}`));
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;

/**
 * A record of one of the author's topics: Bob has worked on the first half of TOPICS,
 * Alice on the second, and prompts ask about all of them (half are answered by a teammate).
 */
function record(namespace: string, i: number): MemoryRecord {
  const half = TOPICS.length / 2;
  const mine = namespace.includes('/actor/alice/') ? TOPICS.slice(half) : TOPICS.slice(0, half);
  const topic = pick(mine);
  return {
    record_id: newRecordId(),
    namespace,
    strategy: 'llm-summary',
    title: `${topic} note ${i}`,
    // Alice and Bob write differently: records that say the same thing are left out of a
    // context as repeats, and the bench wants to see teammates' records in it.
    summary: namespace.includes('/actor/alice/')
      ? `Alice traced ${topic} trouble ${i} to ${pick(TOPICS)}; a guard now rejects it early.`
      : `The ${topic} problem ${i} came from a missing retry; fixed by checking ${pick(TOPICS)} first.`,
    facts: [`${topic} needs ${pick(TOPICS)} ${i}`],
    concepts: topic.split(' '),
    files_touched: [`src/${topic.split(' ')[0]}/${i % 50}.ts`],
    observation_type: 'discovery',
    source_event_ids: [newEventId()],
    created_at: new Date(Date.now() - Math.floor(random() * 90) * 86_400_000).toISOString(),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
};
const ms = (n: number) => n.toFixed(1).padStart(9);
/** A table row: the label, then the median and the 99th percentile. */
const row = (label: string, values: number[]) =>
  console.log(`  ${label.padEnd(37)}${ms(percentile(values, 50))}${ms(percentile(values, 99))}`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
async function http(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: a benchmark reads fields it knows are there
): Promise<{ status: number; json: any }> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const { status, text } = await httpRequest(port, method, path, {
    agent,
    headers,
    ...(raw === undefined ? {} : { body: raw }),
  });
  try {
    return { status, json: JSON.parse(text) };
  } catch {
    return { status, json: undefined };
  }
}

const homes: string[] = [];
const children: Array<ReturnType<typeof spawn>> = [];

/** A data dir with settings.json; the collector in it starts later. */
function home(name: string, settings: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), `kl-bench-${name}-`));
  homes.push(dir);
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify({
      extraction: { mode: 'builtin' },
      semantic: { enabled: false },
      logLevel: 'warn',
      ...settings,
    }),
  );
  return dir;
}

function envOf(dir: string, port: number, extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KIRO_LEARN_HOME: dir,
    KIRO_LEARN_PORT: String(port),
    ...extra,
  };
  delete env['KIRO_LEARN_STORAGE_URL'];
  return env;
}

async function start(env: NodeJS.ProcessEnv, port: number): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'start', '--foreground'], { env, stdio: 'ignore' });
  children.push(child);
  for (let i = 0; i < 600; i++) {
    const ok = await http(port, 'GET', '/healthz').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`collector on ${port} did not start`);
}

function kiro(args: string[], env: NodeJS.ProcessEnv, cwd?: string): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env,
    encoding: 'utf8',
    ...(cwd ? { cwd } : {}),
  });
  if (r.status !== 0) throw new Error(`kiro-learn ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Stores records in a collector's SQLite file before it starts (and shares the project). */
async function seed(
  dir: string,
  records: MemoryRecord[],
  share?: { namespace: string; projectId: string },
) {
  const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
  if (share) await storage.sharing.share(share.namespace, share.projectId);
  for (const r of records) await storage.putRecord(r);
  await storage.close();
}

async function main() {
  // The repository: Alice's and Bob's clones, shared.
  const src = mkdtempSync(join(tmpdir(), 'kl-bench-repo-'));
  homes.push(src);
  const aliceRepo = join(src, 'alice');
  const bobRepo = join(src, 'bob');
  for (const repo of [aliceRepo, bobRepo]) {
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', REMOTE]);
    writeFileSync(join(repo, '.kiro-learn-team.json'), '{"share": true}\n');
  }
  const alice = projectIdentity(aliceRepo, { env: { KIRO_LEARN_ACTOR: 'alice' } });
  const bob = projectIdentity(bobRepo, { env: { KIRO_LEARN_ACTOR: 'bob' } });

  // The team server and its members.
  const serverPort = await freePort();
  // No member rate limit: the outbox drain is measured against a bare PUT loop.
  const serverHome = home('server', {
    token: 'bench-team-server-admin-token',
    rateLimit: { memberPerSecond: 0 },
  });
  const serverEnv = envOf(serverHome, serverPort);
  const tokens: Record<string, string> = {};
  for (const name of ['alice', 'bob']) {
    tokens[name] = kiro(['team', 'add-member', name], serverEnv).trim().split('\n').at(-1)!;
  }
  await start(serverEnv, serverPort);
  const serverUrl = `http://127.0.0.1:${serverPort}`;

  // Bob's two collectors over the same local records.
  const bobRecords = Array.from({ length: RECORDS }, (_, i) => record(bob.namespace, i));
  const bobTeam = { port: await freePort(), home: home('bob-team', {}) };
  const bobLocal = { port: await freePort(), home: home('bob-local', {}) };
  await seed(bobTeam.home, bobRecords);
  await seed(bobLocal.home, bobRecords);
  kiro(['team', 'join', serverUrl, '--token', tokens['bob']!], envOf(bobTeam.home, bobTeam.port));

  // Outbox baseline: a bare sequential keep-alive PUT loop of as many records.
  const direct = Array.from({ length: RECORDS }, (_, i) => record('/actor/x/project/y/', i));
  let started = performance.now();
  for (const [i, r] of direct.entries()) {
    const res = await http(
      serverPort,
      'PUT',
      `/v1/team/records/${r.record_id}`,
      { project_id: 'bench-direct', revision: i + 1, record: r },
      { Authorization: `Bearer ${tokens['bob']}` },
    );
    if (res.status !== 200)
      throw new Error(`direct PUT: ${res.status} ${JSON.stringify(res.json)}`);
  }
  const directRate = RECORDS / ((performance.now() - started) / 1000);

  // Alice's collector with a backlog of shared records: time until its outbox is empty.
  const aliceC = { port: await freePort(), home: home('alice', {}) };
  const aliceEnv = envOf(aliceC.home, aliceC.port);
  kiro(['team', 'join', serverUrl, '--token', tokens['alice']!], aliceEnv);
  await seed(
    aliceC.home,
    Array.from({ length: RECORDS }, (_, i) => record(alice.namespace, i)),
    {
      namespace: alice.namespace,
      projectId: alice.projectId,
    },
  );
  // Pushing starts with the collector; measured from its first answer, over what was left.
  await start(aliceEnv, aliceC.port);
  started = performance.now();
  const left = (await http(aliceC.port, 'GET', '/v1/sharing')).json.outbox.count as number;
  for (;;) {
    const s = await http(aliceC.port, 'GET', '/v1/sharing');
    if (s.json?.outbox?.count === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const outboxRate = left / ((performance.now() - started) / 1000);

  await start(envOf(bobTeam.home, bobTeam.port), bobTeam.port);
  await start(envOf(bobLocal.home, bobLocal.port), bobLocal.port);

  const event = (ns: string, root: string, kind: string, content: string, session: string) => ({
    event_id: newEventId(),
    session_id: session,
    actor_id: 'bench',
    namespace: ns,
    schema_version: 1,
    kind,
    body: { type: 'text', content },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'bench', project_path: root },
  });

  // Bob's first prompt shares his project: his own records go out first (not measured).
  await http(
    bobTeam.port,
    'POST',
    '/v1/events',
    event(bob.namespace, bobRepo, 'prompt', 'hello', 'first'),
  );
  for (;;) {
    const s = await http(bobTeam.port, 'GET', '/v1/sharing');
    if (s.json?.shares?.length === 1 && s.json?.outbox?.count === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  // Prompt latency, interleaved: team-joined and local-only answer the same prompts.
  const wall = { team: [] as number[], local: [] as number[] };
  const own = { team: [] as number[], local: [] as number[] };
  let teamRecords = 0;
  for (let i = 0; i < PROMPTS + 20; i++) {
    const text = `why does the ${pick(TOPICS)} ${pick(['fail', 'time out', 'drift'])} again?`;
    for (const side of i % 2 === 0 ? (['team', 'local'] as const) : (['local', 'team'] as const)) {
      const c = side === 'team' ? bobTeam : bobLocal;
      const t0 = performance.now();
      // A new session each time: a session's repeats are left out, which would empty contexts.
      const r = await http(
        c.port,
        'POST',
        '/v1/events?retrieve=true',
        event(bob.namespace, bobRepo, 'prompt', text, `s${i}`),
      );
      const t = performance.now() - t0;
      if (i < 20) continue; // warm-up
      wall[side].push(t);
      own[side].push(r.json.retrieval.latency_ms);
      if (side === 'team' && r.json.retrieval.context.includes(' — from alice')) teamRecords++;
    }
  }

  // The agent's own search (GET /v1/memories/search: kiro-learn search, MCP search_memory),
  // interleaved the same way: team-joined merges the team server's hits.
  const search = { team: [] as number[], local: [] as number[] };
  let searchTeamHits = 0;
  for (let i = 0; i < PROMPTS + 20; i++) {
    const q = new URLSearchParams({
      namespace: bob.namespace,
      query: `${pick(TOPICS)} ${pick(['fail', 'time out', 'drift'])}`,
      limit: '10',
    });
    for (const side of i % 2 === 0 ? (['team', 'local'] as const) : (['local', 'team'] as const)) {
      const c = side === 'team' ? bobTeam : bobLocal;
      const t0 = performance.now();
      const r = await http(c.port, 'GET', `/v1/memories/search?${q}`);
      const t = performance.now() - t0;
      if (i < 20) continue; // warm-up
      search[side].push(t);
      if (side === 'team' && (r.json as Array<{ author?: string }>).some((h) => h.author)) {
        searchTeamHits++;
      }
    }
  }

  // From the end of Alice's turn to the record in Bob's context.
  const handoffs: number[] = [];
  for (let i = 0; i < HANDOFFS; i++) {
    const word = `zq${i}x${Math.floor(random() * 1e6)}`;
    const session = `turn-${i}`;
    const aliceSends = (kind: string, content: string) =>
      http(
        aliceC.port,
        'POST',
        '/v1/events',
        event(alice.namespace, aliceRepo, kind, content, session),
      );
    await aliceSends('prompt', `why does ${word} break the ledger export?`);
    await aliceSends('tool_use', `edited src/ledger/${word}.ts`);
    const t0 = performance.now();
    await aliceSends('session_summary', `Fixed ${word}: the ledger export needed quoting.`);
    for (let tries = 0; ; tries++) {
      const r = await http(
        bobTeam.port,
        'POST',
        '/v1/events?retrieve=true',
        event(bob.namespace, bobRepo, 'prompt', `${word} ledger export`, `h${i}-${tries}`),
      );
      if (r.json.retrieval.context.includes(word)) break;
      if (tries > 2000) throw new Error('the record never reached Bob');
      await new Promise((res) => setTimeout(res, 10));
    }
    handoffs.push(performance.now() - t0);
    if (process.env['BENCH_VERBOSE'])
      console.log(`handoff ${i}: ${(performance.now() - t0).toFixed(0)} ms`);
  }

  console.log(
    `\nTeam memory, client side (${RECORDS} local records per collector, ${RECORDS} on the team server; lexical; loopback)`,
  );
  console.log('prompt retrieval                          p50 ms   p99 ms');
  row('local only (baseline), wall', wall.local);
  row('with team search, wall', wall.team);
  row('local only (baseline), latency_ms', own.local);
  row('with team search, latency_ms', own.team);
  console.log(`  (${PROMPTS} prompts each; ${teamRecords} team contexts held a record from alice)`);
  console.log('memory search (GET /v1/memories/search)   p50 ms   p99 ms');
  row('local only (baseline), wall', search.local);
  row('with team search, wall', search.team);
  console.log(
    `  (${PROMPTS} searches each; ${searchTeamHits} team answers held a record from alice)`,
  );
  console.log('outbox                                  records/s');
  console.log(`  bare sequential PUT loop (baseline)  ${directRate.toFixed(0).padStart(9)}`);
  console.log(
    `  Alice's outbox drained               ${outboxRate.toFixed(0).padStart(9)}  records/s over what was left when it answered`,
  );
  console.log("end of Alice's turn → in Bob's context   p50 ms   p99 ms   max ms");
  console.log(
    `  extraction, push, team search        ${ms(percentile(handoffs, 50))}${ms(percentile(handoffs, 99))}${ms(Math.max(...handoffs))}  (${HANDOFFS} turns)`,
  );
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  agent.destroy();
}
