// Team server benchmark (issue #18, server side): pushes (PUT /v1/team/records/:id) with
// 1 and 8 keep-alive clients, then searches of one team's project, on a team server over
// SQLite and one over PostgreSQL, each in its own process. Baseline in the same run: the
// same search through the server's own route (GET /v1/memories/search, server token, the
// team's namespace) on the same data, which is the ranking without the member lookup and
// the authors. Prints records/s, p50 and p99. PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL (a
// fresh database, dropped after), else a throwaway embedded PostgreSQL. BENCH_RECORDS sets
// the pushes per run. Asserts nothing.
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { newEventId, newRecordId, teamNamespace } from '@kiro-learn/schema';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { fmt, httpRequest, quantile, spawnServer } from './harness.ts';

const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 2000);
const SEARCHES = 400;
const PROJECT = 'github.com-acme-payments-api';
const SERVER = fileURLToPath(new URL('./team-server.ts', import.meta.url));
const WORDS = (
  'stripe webhook raw body signature kafka consumer lag rebalance redis cache ttl ledger ' +
  'rounding invoice refund queue retry idempotency terraform state bucket migration index ' +
  'postgres vacuum deadlock timeout pool connection tls certificate rotation cron job'
).split(' ');
const pick = () => WORDS[Math.floor(Math.random() * WORDS.length)]!;
const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');

const call = async (
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) => (await httpRequest(port, method, path, { agent, headers, ...(body ? { body } : {}) })).status;

interface Server {
  port: number;
  token: string;
  stop(): Promise<void>;
}

async function startServer(backend: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const server = await spawnServer([SERVER, backend], { env });
  const { port, token } = JSON.parse(server.first) as { port: number; token: string };
  return { port, token, stop: () => server.stop() };
}

/** `count` requests from `clients` keep-alive clients; latencies in ms, and the wall time. */
async function load(
  clients: number,
  count: number,
  send: (agent: Agent, i: number) => Promise<number>,
) {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (next < count) {
        const i = next++;
        const t = performance.now();
        const status = await send(agent, i);
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
      agent.destroy();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rate: count / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

function newRecord(recordId: string) {
  return {
    record_id: recordId,
    namespace: '/actor/alice/project/payments-api/',
    strategy: 'llm-summary',
    title: phrase(6),
    summary: phrase(30),
    facts: [phrase(10), phrase(10)],
    concepts: [pick(), pick()],
    files_touched: [`src/${pick()}.ts`],
    observation_type: 'discovery',
    source_event_ids: [newEventId()],
    created_at: new Date().toISOString(),
  };
}

/** The same record saved through the server's own route: the baseline of a push. */
function save(server: Server) {
  return (agent: Agent) =>
    call(
      agent,
      server.port,
      'POST',
      '/v1/memories',
      { Authorization: 'Bearer bench-server-token', 'Content-Type': 'application/json' },
      JSON.stringify(newRecord(newRecordId())),
    );
}

function push(server: Server) {
  return (agent: Agent) => {
    const recordId = newRecordId();
    const body = JSON.stringify({
      project_id: PROJECT,
      revision: 1,
      record: newRecord(recordId),
    });
    return call(
      agent,
      server.port,
      'PUT',
      `/v1/team/records/${recordId}`,
      { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body,
    );
  };
}

const pg = await startTestPostgres();
try {
  console.log(
    `Team server benchmark: ${RECORDS} pushes per run, ${SEARCHES} searches, Node ${process.version}, PostgreSQL from ${pg.source}`,
  );
  console.log(' backend     what                               per s   p50 ms   p99 ms  errors');
  const backends: Array<[string, () => Promise<Server>]> = [
    ['SQLite', () => startServer('sqlite')],
    [
      'PostgreSQL',
      () =>
        startServer('postgres', {
          BENCH_POSTGRES_URL: pg.url,
          BENCH_POSTGRES_SCHEMA: freshSchema('team'),
        }),
    ],
  ];
  for (const [name, start] of backends) {
    const server = await start();
    try {
      const line = (what: string, r: Awaited<ReturnType<typeof load>>) =>
        console.log(
          ` ${name.padEnd(11)} ${what.padEnd(32)}${fmt(r.rate, 0)}${fmt(r.p50)}${fmt(r.p99)}${String(r.errors).padStart(8)}`,
        );
      await load(1, 50, push(server)); // warm-up
      await load(1, 50, save(server));
      line('save, own route (baseline), 1', await load(1, RECORDS, save(server)));
      line('push, 1 client', await load(1, RECORDS, push(server)));
      line('save, own route (baseline), 8', await load(8, RECORDS, save(server)));
      line('push, 8 clients', await load(8, RECORDS, push(server)));
      const queries = Array.from({ length: SEARCHES }, () => phrase(4));
      const namespace = teamNamespace('core', PROJECT);
      const search = (path: (q: string) => string, token: string) => (agent: Agent, i: number) =>
        call(agent, server.port, 'GET', path(queries[i]!), { Authorization: `Bearer ${token}` });
      const own = search(
        (q) => `/v1/memories/search?${new URLSearchParams({ namespace, query: q, limit: '10' })}`,
        'bench-server-token',
      );
      const team = search(
        (q) =>
          `/v1/team/search?${new URLSearchParams({ project: PROJECT, query: q, limit: '10' })}`,
        server.token,
      );
      await load(1, 50, own);
      await load(1, 50, team);
      line('search, own route (baseline)', await load(1, SEARCHES, own));
      line('search, team route', await load(1, SEARCHES, team));
    } finally {
      await server.stop();
    }
  }
} finally {
  await pg.stop();
}
