// SQLite and PostgreSQL side by side, in the same run on the same corpus:
// 1. insert rate and search p50/p99 at 100k records (BENCH_BACKEND_SIZE), with a point
//    lookup of each backend as its own baseline;
// 2. extraction claims under contention: 4 backends (as 4 collectors would) race to claim,
//    read and commit batches of one project's pending events; every event must be committed
//    exactly once (PostgreSQL only: SQLite is one process's).
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL (a fresh database, dropped after), else a
// throwaway embedded PostgreSQL. Prints numbers and asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { environment, fmt, nodeStartupBaseline, summarize } from '../../../scripts/bench/stats.mjs';
import { makeRecord, namespaces, random, ulid, words } from './corpus.mjs';

const SIZE = Number(process.env.BENCH_BACKEND_SIZE) || 100_000;

console.log(`storage backends bench — ${environment()}`);
const startup = nodeStartupBaseline(10);
console.log(`baseline: node -e '' start-up p50 ${fmt(startup.p50)}, p99 ${fmt(startup.p99)}`);

const server = await startTestPostgres();
const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-bench-backends-'));
try {
  const version = async (storage) => (await storage.health()).version;
  const backends = [
    ['SQLite', await openSqliteStorage({ path: join(dir, 'bench.db') })],
    [
      'PostgreSQL',
      // Inserts are queued far past the pool here: let them wait instead of failing fast.
      await openPostgresStorage({
        url: server.url,
        schema: freshSchema('bench'),
        acquireTimeoutMs: 600_000,
      }),
    ],
  ];
  console.log(`PostgreSQL ${await version(backends[1][1])} (${server.source})\n`);
  const prompts = Array.from({ length: 400 }, () => words(8 + Math.floor(random() * 30)));
  console.log(`${SIZE.toLocaleString('en')} records, 400 prompts of 8-38 words, limit 10:`);
  for (const [name, storage] of backends) {
    const start = performance.now();
    for (let i = 0; i < SIZE; i += 2000) {
      const n = Math.min(2000, SIZE - i);
      await Promise.all(Array.from({ length: n }, (_, k) => storage.putRecord(makeRecord(i + k))));
    }
    const rate = Math.round(SIZE / ((performance.now() - start) / 1000));
    const lookups = [];
    for (let i = 0; i < 400; i++) {
      const t = performance.now();
      await storage.getRecord('mr_missing');
      lookups.push(performance.now() - t);
    }
    const latencies = [];
    let hits = 0;
    for (const query of prompts) {
      const t = performance.now();
      const found = await storage.searchRecords({ namespace: namespaces[0], query, limit: 10 });
      latencies.push(performance.now() - t);
      hits += found.length > 0 ? 1 : 0;
    }
    const s = summarize(latencies);
    const l = summarize(lookups);
    console.log(
      `  ${name.padEnd(11)} insert ${rate.toLocaleString('en').padStart(7)} records/s, search p50 ${fmt(s.p50)} p99 ${fmt(s.p99)} max ${fmt(s.max)} (${hits}/400 with hits); point lookup p50 ${fmt(l.p50)} p99 ${fmt(l.p99)}; ${((await storage.sizeBytes()) / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  for (const [, storage] of backends) await storage.close();

  // Claims under contention.
  const schema = freshSchema('claims');
  const collectors = await Promise.all(
    Array.from({ length: 4 }, () =>
      openPostgresStorage({ url: server.url, schema, poolSize: 4, acquireTimeoutMs: 60_000 }),
    ),
  );
  const namespace = namespaces[0];
  const EVENTS = 2000;
  const committed = new Map();
  let claims = 0;
  let refused = 0;
  let batches = 0;
  const writer = (async () => {
    for (let i = 0; i < EVENTS; i++) {
      const event = {
        event_id: ulid(),
        session_id: 's',
        actor_id: 'dev0',
        namespace,
        schema_version: 1,
        kind: 'tool_use',
        body: { type: 'text', content: words(20) },
        valid_time: new Date().toISOString(),
        source: { surface: 'kiro-cli', version: '1', client_id: 'bench' },
      };
      await collectors[i % 4].putEvent(event, { pending: true });
    }
  })();
  let writing = true;
  void writer.then(() => {
    writing = false;
  });
  const started = performance.now();
  await Promise.all(
    collectors.map(async (storage, n) => {
      const owner = `collector-${n}`;
      for (;;) {
        claims++;
        if (!(await storage.claimExtraction(namespace, owner, 30_000))) {
          refused++;
          await new Promise((r) => setTimeout(r, 1));
          continue;
        }
        const pending = await storage.listPending(namespace, { limit: 50 });
        if (pending.length > 0) {
          const ids = pending.map((p) => p.eventId);
          await storage.commitExtraction({ namespace, records: [], eventIds: ids });
          for (const id of ids) committed.set(id, (committed.get(id) ?? 0) + 1);
          batches++;
        }
        await storage.releaseExtraction(namespace, owner);
        if (!writing && pending.length === 0) return;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const twice = [...committed.values()].filter((n) => n > 1).length;
  console.log(
    `\nclaims under contention (4 collectors, ${EVENTS} events written meanwhile): ${batches} batches, ` +
      `${Math.round(claims / seconds).toLocaleString('en')} claims/s (${refused} refused), ` +
      `${committed.size} events committed, ${twice} committed twice`,
  );
  for (const storage of collectors) await storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
