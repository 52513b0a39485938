// PostgreSQL ingest benchmark, beside SQLite and the server's own limit in the same run:
// POST /v1/events through the full pipeline with 1 and 8 keep-alive clients on a collector
// over SQLite, one over PostgreSQL, and two collectors over the same PostgreSQL schema (the
// clients split between them), each server in its own process; `pgbench` on the same
// server inserting the same rows one per transaction (plain INSERT, and INSERT + NOTIFY) is
// the database's ceiling. Then the collector-bound case, as on hosts where each collector
// has a CPU of its own: every collector process in a cgroup of its own capped at
// BENCH_COLLECTOR_CPU of a core (default 0.3; cgroup v1 cpu controller, needs root), one
// collector against two. Prints req/s, p50 and p99, errors, the server CPU per request
// (both servers' for the pair), the ratios the targets are about, and the load average.
// Targets are run interleaved, BENCH_ROUNDS times (default 2), median req/s kept; BENCH_ONLY (a
// regular expression over `clients|target`) runs some only. Where the server has a unix
// socket (BENCH_POSTGRES_SOCKET_DIR, default /var/run/postgresql), one collector and a pair
// also connect through it instead of TCP loopback. BENCH_BASELINE=<another checkout's
// apps/collector/bench/server.ts> adds that build's collector, one and a pair, as a
// same-run baseline (build it first).
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL (a fresh database, dropped after), else a
// throwaway embedded PostgreSQL. BENCH_MS sets the run length. Asserts nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { type IngestServer, ingestLoad, startIngestServer, toolEventPayload } from './harness.ts';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const COLLECTOR_CPU = Number(process.env['BENCH_COLLECTOR_CPU'] ?? 0.3);
const CGROUP_CPU = '/sys/fs/cgroup/cpu';
/** BENCH_ONLY: a regular expression; only targets whose `clients|name` matches run. */
const ONLY = new RegExp(process.env['BENCH_ONLY'] ?? '');
const BASELINE = process.env['BENCH_BASELINE'];
const SOCKET_DIR = process.env['BENCH_POSTGRES_SOCKET_DIR'] ?? '/var/run/postgresql';

/** A cgroup (v1 cpu) capped at `cores` of a core, or undefined where none can be made. */
function cpuCap(cores: number): { add(pid: number): void; remove(): void } | undefined {
  const dir = join(
    CGROUP_CPU,
    `kiro-learn-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(cores * 100_000)));
  } catch {
    return undefined;
  }
  return {
    add: (pid) => writeFileSync(join(dir, 'cgroup.procs'), String(pid)),
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // still has a process: the kernel keeps it until it exits
      }
    },
  };
}

/** An ingest server, its process capped at `capCores` of a core when given. */
async function startServer(
  mode: string,
  env: NodeJS.ProcessEnv = {},
  capCores?: number,
  script?: string,
): Promise<IngestServer> {
  const cap = capCores === undefined ? undefined : cpuCap(capCores);
  if (capCores !== undefined && !cap) {
    throw new Error(`cannot make a cgroup under ${CGROUP_CPU} (needs root and cgroup v1 cpu)`);
  }
  const server = await startIngestServer(mode, {
    env,
    ...(script ? { script } : {}),
    ...(cap ? { onSpawn: (pid: number) => cap.add(pid) } : {}),
  });
  return {
    ...server,
    stop: async () => {
      const cpu = await server.stop();
      cap?.remove();
      return cpu;
    },
  };
}

interface Row {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpu: number;
  /** Events stored per transaction committed in the database (group commit's batch). */
  perCommit: number;
}

/** Transactions committed in the bench's database, and rows inserted into `events`. */
function commitStats(url: string): { commits: number; events: number } {
  const r = spawnSync(
    'psql',
    [
      url,
      '-Atc',
      `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
        (SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_user_tables WHERE relname = 'events')`,
    ],
    { encoding: 'utf8' },
  );
  const [commits, events] = (r.stdout ?? '').trim().split('|').map(Number);
  return { commits: commits ?? Number.NaN, events: events ?? Number.NaN };
}

/** `pgbench` inserting the collector's event rows, one per transaction, on `clients`. */
function pgbench(url: string, clients: number, notify: boolean): Row | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kl-pgbench-'));
  try {
    const json = toolEventPayload().replaceAll("'", "''");
    const script = join(dir, 'insert.sql');
    writeFileSync(
      script,
      `INSERT INTO pgbench_events (event_id, namespace, session_id, kind, valid_time, received_at, bytes, json) VALUES (md5(random()::text || clock_timestamp()::text), '/actor/dev/project/repo1/', 'bench-session', 'tool_use', now()::text, now()::text, ${json.length}, '${json}');\n${notify ? "SELECT pg_notify('pgbench_events', 'x');\n" : ''}`,
    );
    const setup = spawnSync(
      'psql',
      [
        url,
        '-q',
        '-c',
        `CREATE TABLE IF NOT EXISTS pgbench_events (seq BIGSERIAL, event_id TEXT COLLATE "C" PRIMARY KEY, namespace TEXT COLLATE "C" NOT NULL, session_id TEXT NOT NULL, kind TEXT NOT NULL, valid_time TEXT NOT NULL, received_at TEXT NOT NULL, bytes INTEGER NOT NULL, json TEXT NOT NULL)`,
      ],
      { encoding: 'utf8' },
    );
    if (setup.status !== 0) return { error: (setup.stderr || 'psql failed').trim() };
    const seconds = Math.max(1, Math.round(DURATION_MS / 1000));
    const r = spawnSync(
      'pgbench',
      [
        '-n',
        '-c',
        String(clients),
        '-j',
        String(Math.min(clients, 2)),
        '-T',
        String(seconds),
        '-f',
        script,
        url,
      ],
      { encoding: 'utf8' },
    );
    const tps = /tps = ([\d.]+)/.exec(r.stdout ?? '');
    const latency = /latency average = ([\d.]+) ms/.exec(r.stdout ?? '');
    if (!tps)
      return { error: (r.stderr || r.stdout || 'pgbench failed').trim().split('\n').at(-1)! };
    return {
      rps: Number(tps[1]),
      p50: Number(latency?.[1] ?? 0),
      p99: Number.NaN,
      errors: 0,
      cpu: Number.NaN,
      perCommit: 1,
    };
  } catch (error) {
    return { error: String(error) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const pg = await startTestPostgres();
try {
  // The same database through the server's unix socket, where it has one.
  const tcp = new URL(pg.url);
  const socketUrl = existsSync(join(SOCKET_DIR, `.s.PGSQL.${tcp.port || 5432}`))
    ? `postgres://${tcp.username}@localhost${tcp.pathname}?host=${SOCKET_DIR}&port=${tcp.port || 5432}`
    : undefined;
  const onPostgres = (schema: string, url = pg.url) => ({
    BENCH_POSTGRES_URL: url,
    BENCH_POSTGRES_SCHEMA: schema,
  });
  const one = (url?: string, script?: string) => async () => [
    await startServer('postgres', onPostgres(freshSchema('b'), url), undefined, script),
  ];
  const pair = (cap?: number, url?: string, script?: string) => async () => {
    const schema = freshSchema('b');
    // One first, so the second finds the schema migrated.
    const first = await startServer('postgres', onPostgres(schema, url), cap, script);
    return [first, await startServer('postgres', onPostgres(schema, url), cap, script)];
  };
  type Target = [string, number, () => Promise<IngestServer[]> | Row | { error: string }];
  const targets: Target[] = [];
  for (const clients of [1, 8]) {
    targets.push(
      ['echo (baseline)', clients, async () => [await startServer('echo')]],
      ['SQLite', clients, async () => [await startServer('collector')]],
      ['PostgreSQL', clients, one()],
      ['PostgreSQL ×2', clients, pair()],
      ['pgbench INSERT', clients, () => pgbench(pg.url, clients, false)],
      ['pgbench INSERT+NOTIFY', clients, () => pgbench(pg.url, clients, true)],
    );
    if (socketUrl) {
      targets.push(
        ['PostgreSQL, unix socket', clients, one(socketUrl)],
        ['PostgreSQL ×2, unix socket', clients, pair(undefined, socketUrl)],
      );
    }
    if (BASELINE) {
      targets.push(
        ['PostgreSQL, baseline build', clients, one(undefined, BASELINE)],
        ['PostgreSQL ×2, baseline build', clients, pair(undefined, undefined, BASELINE)],
      );
    }
  }
  const capped = `${COLLECTOR_CPU} core each`;
  targets.push(
    [
      `PostgreSQL, ${capped}`,
      8,
      async () => [await startServer('postgres', onPostgres(freshSchema('b')), COLLECTOR_CPU)],
    ],
    [`PostgreSQL ×2, ${capped}`, 8, pair(COLLECTOR_CPU)],
  );
  if (BASELINE) {
    targets.push(
      [
        `PostgreSQL, ${capped}, baseline build`,
        8,
        async () => [
          await startServer('postgres', onPostgres(freshSchema('b')), COLLECTOR_CPU, BASELINE),
        ],
      ],
      [`PostgreSQL ×2, ${capped}, baseline build`, 8, pair(COLLECTOR_CPU, undefined, BASELINE)],
    );
  }
  targets.splice(
    0,
    targets.length,
    ...targets.filter(([name, clients]) => ONLY.test(`${clients}|${name}`)),
  );
  const loadBefore = loadavg()[0]!;
  console.log(
    `PostgreSQL ingest benchmark: ${DURATION_MS} ms per run, ${ROUNDS} interleaved rounds (median req/s), Node ${process.version}, PostgreSQL from ${pg.source}, load average ${loadBefore.toFixed(1)}`,
  );
  const results = new Map<string, Row[]>();
  const failed = new Map<string, string>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, clients, start] of targets) {
      const key = `${clients}|${name}`;
      try {
        const started = await start();
        const before = commitStats(pg.url);
        let row: Row | { error: string };
        if (Array.isArray(started)) {
          const load = await ingestLoad(started, clients, DURATION_MS, toolEventPayload);
          // The servers' backends report their counts as they exit (stopped by ingestLoad).
          await new Promise((resolve) => setTimeout(resolve, 200));
          const after = commitStats(pg.url);
          row = {
            ...load,
            perCommit: (after.events - before.events) / (after.commits - before.commits),
          };
        } else row = started;
        if ('error' in row) failed.set(key, row.error);
        else results.set(key, [...(results.get(key) ?? []), row]);
      } catch (error) {
        failed.set(key, error instanceof Error ? error.message : String(error));
      }
    }
  }
  const fmt = (n: number, digits = 2) =>
    Number.isNaN(n) ? '        -' : n.toFixed(digits).padStart(9);
  const rate = (clients: number, name: string) =>
    median((results.get(`${clients}|${name}`) ?? []).map((r) => r.rps));
  console.log(
    ` clients  ${'target'.padEnd(40)}    req/s   p50 ms   p99 ms   cpu µs  errors  events/commit`,
  );
  for (const [name, clients] of targets) {
    const key = `${clients}|${name}`;
    const rows = results.get(key);
    if (!rows) {
      console.log(
        `${String(clients).padStart(8)}  ${name.padEnd(40)}  not run: ${failed.get(key) ?? '?'}`,
      );
      continue;
    }
    const m = (pick: (r: Row) => number) => median(rows.map(pick));
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    console.log(
      `${String(clients).padStart(8)}  ${name.padEnd(40)}${fmt(
        m((r) => r.rps),
        0,
      )}${fmt(m((r) => r.p50))}${fmt(m((r) => r.p99))}${fmt(
        m((r) => r.cpu),
        0,
      )}${String(errors).padStart(8)}${fmt(
        m((r) => r.perCommit),
        1,
      ).padStart(15)}`,
    );
  }
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '-');
  console.log('\n ratios (targets: ≥ 0.8, ≥ 0.5, ≥ 1.0, ≥ 1.6)');
  console.log(
    `  PostgreSQL / pgbench plain INSERT, 8 clients      ${ratio(rate(8, 'PostgreSQL'), rate(8, 'pgbench INSERT'))}`,
  );
  console.log(
    `  PostgreSQL / SQLite, 8 clients                    ${ratio(rate(8, 'PostgreSQL'), rate(8, 'SQLite'))}`,
  );
  console.log(
    `  two collectors / one, 8 clients                   ${ratio(rate(8, 'PostgreSQL ×2'), rate(8, 'PostgreSQL'))}`,
  );
  console.log(
    `  two / one, each collector capped at ${COLLECTOR_CPU} core       ${ratio(rate(8, `PostgreSQL ×2, ${capped}`), rate(8, `PostgreSQL, ${capped}`))}`,
  );
  const also = (label: string, suffix: string, cap = '') => {
    const a = rate(8, `PostgreSQL${cap}${suffix}`);
    const b = rate(8, `PostgreSQL ×2${cap}${suffix}`);
    if (Number.isNaN(a)) return;
    console.log(
      `  ${label}: PostgreSQL / SQLite ${ratio(a, rate(8, 'SQLite'))}, / pgbench ${ratio(a, rate(8, 'pgbench INSERT'))}, two / one ${ratio(b, a)}`,
    );
  };
  also('unix socket', ', unix socket');
  also('baseline build', ', baseline build');
  also(`baseline build, ${capped}`, ', baseline build', `, ${capped}`);
  console.log(
    `\n load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after (2 cores, shared)`,
  );
} finally {
  await pg.stop();
}
