// One server for the ingest benchmark, in its own process so it does not share an event
// loop with the client: `echo` (a bare hono route that parses and returns the JSON body),
// `collector` (the full pipeline over a fresh SQLite file) or `postgres` (the full
// pipeline over PostgreSQL: BENCH_POSTGRES_URL, schema BENCH_POSTGRES_SCHEMA; with
// BENCH_SEMANTIC=1 the embedding model as well, ready before the port is printed). Prints its
// port, and on SIGTERM the CPU microseconds it used since SIGUSR2.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { Hono } from 'hono';
import { createCollector, createSemantic, normalizeSettings, silentLogger } from 'kiro-learn';

const mode = process.argv[2];
let port: number;
let home: string | undefined;
if (mode === 'echo') {
  const app = new Hono();
  app.post('/v1/events', async (c) => c.json(await c.req.json()));
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
} else {
  home = mkdtempSync(join(tmpdir(), 'kl-bench-'));
  const storage =
    mode === 'postgres'
      ? await openPostgresStorage({
          url: process.env['BENCH_POSTGRES_URL'] ?? '',
          schema: process.env['BENCH_POSTGRES_SCHEMA'] ?? 'public',
        })
      : await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  const settings = normalizeSettings({ port: 0 }, home);
  // BENCH_SEMANTIC=1: the embedding model too (prompts embedded, vectors searched).
  const semantic =
    process.env['BENCH_SEMANTIC'] === '1'
      ? createSemantic(storage, settings, silentLogger)
      : undefined;
  const collector = createCollector({ storage, settings, ...(semantic ? { semantic } : {}) });
  ({ port } = await collector.listen());
  // Serves once the model is loaded (or failed), so a run measures the model in use.
  while (semantic && (await semantic.status()).state === 'loading') {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
// SIGUSR2 marks the end of the warm-up; SIGTERM prints the CPU time (all threads) used
// since, then exits normally, which lets `--cpu-prof` write its profile.
let mark = process.cpuUsage();
process.on('SIGUSR2', () => {
  mark = process.cpuUsage();
});
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage(mark);
  if (home) rmSync(home, { recursive: true, force: true });
  process.stdout.write(`${user + system}\n`, () => process.exit(0));
});
process.stdout.write(`${port}\n`);
