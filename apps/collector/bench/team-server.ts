// One team server for the team benchmark, in its own process: a collector with the server
// token `bench-server-token` and member `alice` of team `core`, over a fresh SQLite file
// (`sqlite`) or PostgreSQL (`postgres`: BENCH_POSTGRES_URL, schema BENCH_POSTGRES_SCHEMA).
// Lexical search (no embedding model). Prints `{port, token}`; exits on SIGTERM.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { createCollector, normalizeSettings } from 'kiro-learn';

const home = mkdtempSync(join(tmpdir(), 'kl-bench-team-'));
const storage =
  process.argv[2] === 'postgres'
    ? await openPostgresStorage({
        url: process.env['BENCH_POSTGRES_URL'] ?? '',
        schema: process.env['BENCH_POSTGRES_SCHEMA'] ?? 'public',
      })
    : await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
// As `kiro-learn team add-member` makes and stores it: shown once, stored as its SHA-256.
const token = `klm_${randomBytes(32).toString('base64url')}`;
const tokenHash = createHash('sha256').update(token).digest('hex');
await storage.addMember({ name: 'alice', team: 'core', role: 'member', tokenHash });
const collector = createCollector({
  storage,
  // No member rate limit: the bench measures what one member's token can drive.
  settings: normalizeSettings(
    { port: 0, token: 'bench-server-token', rateLimit: { memberPerSecond: 0 } },
    home,
  ),
});
const { port } = await collector.listen();
process.once('SIGTERM', () => {
  void collector.close().then(() => {
    rmSync(home, { recursive: true, force: true });
    process.exit(0);
  });
});
process.stdout.write(`${JSON.stringify({ port, token })}\n`);
