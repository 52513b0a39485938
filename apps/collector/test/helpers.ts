import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Event, type MemoryRecord, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { event } from '@kiro-learn/test-harness/events';
import { inject } from 'vitest';
import { type Collector, type CollectorOptions, createCollector } from '../src/app.js';
import { runCli } from '../src/commands/index.js';
import { normalizeSettings, type SettingsFile } from '../src/config/settings.js';

export interface Running {
  collector: Collector;
  port: number;
  home: string;
  dbPath: string;
  close(): Promise<void>;
}

/** A real collector on 127.0.0.1 port 0 over a real SQLite file in a temp dir. */
export async function startCollector(
  file: SettingsFile = {},
  extra: Partial<CollectorOptions> = {},
): Promise<Running> {
  const home = mkdtempSync(join(tmpdir(), 'kl-collector-'));
  const dbPath = join(home, 'kiro-learn.db');
  const settings = normalizeSettings({ port: 0, ...file }, home);
  const storage = await openSqliteStorage({ path: dbPath });
  const collector = createCollector({ storage, settings, version: '9.9.9', ...extra });
  const { port } = await collector.listen();
  return {
    collector,
    port,
    home,
    dbPath,
    async close() {
      await collector.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json: any;
}

/**
 * One HTTP request with full control of the headers (fetch would pick Host and Origin
 * itself). JSON bodies get `Content-Type: application/json` unless headers say otherwise.
 */
export function send(
  port: number,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const raw =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    ...(raw !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(raw);
  });
}

export const NS = '/actor/dev/project/payments-api/';

const RAN_TESTS: Event['body'] = { type: 'text', content: 'ran the tests' };

/** A valid event (the developer's tool use in NS); override any field. */
export const makeEvent = (overrides: Partial<Event> = {}): Event =>
  event({ actor_id: 'dev', namespace: NS, kind: 'tool_use', body: RAN_TESTS, ...overrides });

/** Runs `kiro-learn <args>` in this process; returns the exit code and what it printed. */
/** A record of NS that a prompt about the Stripe webhook finds (the API tests' record). */
export function makeRecord(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    ...newRecord({
      namespace: NS,
      strategy: 'builtin',
      title: 'Stripe webhook needs the raw body',
      summary: 'Signature verification fails when express.json() parses the body first.',
      facts: ['Mount express.raw on /webhooks/stripe'],
      concepts: ['stripe', 'webhook'],
      files_touched: ['src/webhooks/stripe.ts'],
    }),
    ...overrides,
  };
}

export async function runCliHere(args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()) {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    ({
      write: (chunk: string) => {
        append(String(chunk));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const code = await runCli(args, {
    env,
    cwd,
    stdout: sink((t) => {
      stdout += t;
    }),
    stderr: sink((t) => {
      stderr += t;
    }),
  });
  return { code, stdout, stderr };
}

/** Rows of one query in a PostgreSQL schema, on a connection of its own. */
export { rowsIn as pgRows } from '@kiro-learn/test-postgres';

/**
 * A team server's data dir and environment, as one is run: a collector on the test
 * PostgreSQL (in `schema`), reachable from other machines and so guarded by tokens (its own:
 * `token`), extracting with the built-in rules, without the embedding model.
 */
export function teamServerEnv(home: string, port: number, schema: string): NodeJS.ProcessEnv {
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      storage: { schema },
      token: 'team-server-admin-token-0123456789',
      extraction: { mode: 'builtin' },
      semantic: { enabled: false },
    }),
  );
  return {
    ...process.env,
    KIRO_LEARN_HOME: home,
    KIRO_LEARN_PORT: String(port),
    KIRO_LEARN_HOST: '0.0.0.0',
    KIRO_LEARN_STORAGE_URL: inject('postgresUrl'),
  };
}

/**
 * A team member's machine's settings: built-in extraction, no embedding model, and
 * generous retrieval and team-search budgets (the machine's two cores are shared; only a
 * slow-server test gives the team server less time than it takes), `extra` on top.
 */
export function writeMemberSettings(home: string, extra: Record<string, unknown> = {}): void {
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      extraction: { mode: 'builtin' },
      semantic: { enabled: false },
      retrieval: { budgetMs: 4000 },
      team: { searchBudgetMs: 3000 },
      ...extra,
    }),
  );
}

/** The header line of an export file (`kiro-learn export`) holding `counts`. */
export function exportHeader(counts: { events: number; records: number }, toolVersion = 'x') {
  return {
    type: 'header',
    format: 'kiro-learn-export',
    version: 1,
    tool_version: toolVersion,
    exported_at: new Date().toISOString(),
    counts,
  };
}
