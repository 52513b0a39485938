// Captures the database a release writes, for the upgrade test (test/upgrade.test.ts):
// the built collector of THIS checkout starts on an empty data dir, takes a short session
// over HTTP as hooks and the MCP server would send it, stops, and the database is copied
// (VACUUM INTO: one small file, no WAL) into test/fixtures/previous-release/ with a JSON
// file saying what it holds. Run it on the release's commit, after building:
//   node apps/collector/scripts/make-release-db.ts
// The test then opens that database with every later version and checks nothing is lost.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const CLI = here('../dist/cli.js');
const OUT = here('../test/fixtures/previous-release/');
const { version } = JSON.parse(readFileSync(here('../package.json'), 'utf8')) as {
  version: string;
};

const port = await new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});
const home = mkdtempSync(join(tmpdir(), 'kiro-learn-release-db-'));
const env = { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: String(port) };
const collector = spawn(process.execPath, [CLI, 'start', '--foreground'], {
  env: { ...env, KIRO_LEARN_EXTRACTOR: 'builtin' },
  stdio: 'ignore',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 300) throw new Error('the collector did not start');
  await new Promise((r) => setTimeout(r, 100));
}

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
};

const namespace = '/actor/dev/project/payments-api-0123456789ab/';
const source = {
  surface: 'claude-code',
  version,
  client_id: 'release-fixture',
  project_path: '/home/dev/src/payments-api',
};
const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;
const events = [
  {
    event_id: '01KA0000000000000000000001',
    kind: 'prompt',
    body: { type: 'text', content: 'Why do Stripe webhook signatures fail since the deploy?' },
  },
  {
    event_id: '01KA0000000000000000000002',
    kind: 'tool_use',
    body: {
      type: 'json',
      data: {
        tool_name: 'Edit',
        tool_input: {
          file_path: 'src/webhooks/stripe.ts',
          old_string: 'express.json()',
          new_string: 'express.raw()',
        },
        tool_response: { success: true },
      },
    },
  },
  {
    event_id: '01KA0000000000000000000003',
    kind: 'session_summary',
    body: {
      type: 'text',
      content: 'The webhook route now reads the raw body; signatures verify again.',
    },
  },
].map((event, i) => ({
  ...event,
  session_id: 'release-fixture-session',
  actor_id: 'dev',
  namespace,
  schema_version: 1,
  valid_time: at(i),
  source,
}));
for (const event of events) await post('/v1/events', event);
const record = {
  record_id: 'mr_01KA0000000000000000000010',
  namespace,
  strategy: 'mcp_observation',
  title: 'Stripe webhooks need the raw request body',
  summary:
    'express.json() re-serialized the body and broke signature verification; the route uses express.raw().',
  facts: ['constructEvent needs the exact bytes Stripe sent'],
  concepts: ['stripe', 'webhooks'],
  files_touched: ['src/webhooks/stripe.ts'],
  observation_type: 'discovery',
  source_event_ids: events.map((e) => e.event_id),
  created_at: at(5),
};
await post('/v1/memories', record);

collector.kill('SIGTERM');
await new Promise((resolve) => collector.once('exit', resolve));
const database = join(OUT, 'kiro-learn.db');
rmSync(database, { force: true });
const db = new DatabaseSync(join(home, 'kiro-learn.db'));
db.exec(`VACUUM INTO '${database.replaceAll("'", "''")}'`);
const migrations = db
  .prepare('SELECT name FROM schema_migrations ORDER BY name')
  .all()
  .map((row) => (row as { name: string }).name);
db.close();
rmSync(home, { recursive: true, force: true });
writeFileSync(
  join(OUT, 'manifest.json'),
  `${JSON.stringify({ version, migrations, namespace, events, record }, null, 2)}\n`,
);
console.log(`wrote ${database} (kiro-learn ${version}, migrations ${migrations.join(', ')})`);
