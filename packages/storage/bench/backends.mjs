// SQLite and PostgreSQL side by side, in the same run on the same corpus:
// 1. insert rate and search p50/p99 at 100k records (BENCH_BACKEND_SIZE), with a point
//    lookup of each backend as its own baseline. Search runs the prompts twice: right
//    after the import (cold: no cached term counts; PostgreSQL gathers its statistics
//    meanwhile) and again (warm);
// 2. extraction claims under contention: 4 extraction loops race to claim, read and
//    commit batches of one project's pending events while events arrive; every event must
//    be committed exactly once. On PostgreSQL the loops are 4 backends (as 4 collectors);
//    on SQLite, whose claims live in its one process, 4 loops share one backend.
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL (a fresh database, dropped after), else a
// throwaway embedded PostgreSQL. Prints numbers and asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import { environment, fmt, nodeStartupBaseline, summarize } from '../../../scripts/bench/stats.mjs';
import { makeRecord, namespaces, random, ulid, words } from './corpus.mjs';

const SIZE = Number(process.env.BENCH_BACKEND_SIZE) || 100_000;
const EVENTS = 2000;

/** Search p50/p99 of the prompts, first right after the import (cold), then again (warm). */
async function measureSearch(storage, prompts) {
  const passes = [];
  let hits = 0;
  for (let pass = 0; pass < 2; pass++) {
    const latencies = [];
    for (const query of prompts) {
      const t = performance.now();
      const found = await storage.searchRecords({ namespace: namespaces[0], query, limit: 10 });
      latencies.push(performance.now() - t);
      if (pass === 0) hits += found.length > 0 ? 1 : 0;
    }
    passes.push(summarize(latencies));
  }
  const [cold, warm] = passes;
  return `search cold p50 ${fmt(cold.p50)} p99 ${fmt(cold.p99)}, warm p50 ${fmt(warm.p50)} p99 ${fmt(warm.p99)} (${hits}/${prompts.length} with hits)`;
}

/**
 * 4 extraction loops (one per entry of `loops`) race for one project's claim while
 * events arrive through them in turn; each committed batch is counted per event.
 */
async function claimRace(loops) {
  const namespace = namespaces[0];
  const committed = new Map();
  const written = [];
  let claims = 0;
  let refused = 0;
  let batches = 0;
  let writing = true;
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
      await loops[i % loops.length].putEvent(event, { pending: true });
      written.push(event.event_id);
    }
  })();
  void writer.then(() => {
    writing = false;
  });
  const started = performance.now();
  await Promise.all(
    loops.map(async (storage, n) => {
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
        if (pending.length === 0) {
          if (!writing) return;
          // Nothing to extract yet: wait as an extraction loop does (on SQLite every call
          // above settles without I/O, so not waiting would starve the writer).
          await new Promise((r) => setTimeout(r, 1));
        }
      }
    }),
  );
  await writer;
  return {
    seconds: (performance.now() - started) / 1000,
    claims,
    refused,
    batches,
    committed: committed.size,
    twice: [...committed.values()].filter((n) => n > 1).length,
    lost: written.filter((id) => !committed.has(id)).length,
  };
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(`storage backends bench — ${environment()}; load average ${load()}`);
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
    // SQLite's impact-ordered search table takes new records in the background: the insert
    // rate counts it, and search is measured once it is complete.
    while ((await storage.impactBacklog?.()) > 0) await new Promise((r) => setTimeout(r, 100));
    const rate = Math.round(SIZE / ((performance.now() - start) / 1000));
    const lookups = [];
    for (let i = 0; i < 400; i++) {
      const t = performance.now();
      await storage.getRecord('mr_missing');
      lookups.push(performance.now() - t);
    }
    let before = '';
    if (name === 'PostgreSQL') {
      // As autovacuum would after an import (this backend also starts one by itself when
      // statistics are missing, but a search does not wait for it).
      await sql`ANALYZE memory_records`.execute(storage.db);
      await sql`SELECT gin_clean_pending_list('memory_records_search'::regclass)`.execute(
        storage.db,
      );
      // The same records searched as before term statistics: every document frequency
      // counted through the index (a backend of its own: nothing cached). It runs first,
      // so whatever it brings into the caches only helps what follows.
      const counting = await openPostgresStorage({
        url: server.url,
        schema: storage.schema,
        termStatsMinRecords: Number.POSITIVE_INFINITY,
      });
      before = `\n  ${''.padEnd(11)} counting every term through the index (before): ${await measureSearch(counting, prompts)}`;
      await counting.close();
    }
    const search = await measureSearch(storage, prompts);
    const l = summarize(lookups);
    console.log(
      `  ${name.padEnd(11)} insert ${rate.toLocaleString('en').padStart(7)} records/s; ${search}; point lookup p50 ${fmt(l.p50)} p99 ${fmt(l.p99)}; ${((await storage.sizeBytes()) / 2 ** 20).toFixed(0)} MiB${before}`,
    );
  }
  for (const [, storage] of backends) await storage.close();

  // Claims under contention: the same race on each backend.
  console.log(
    `\nclaims under contention (4 extraction loops, ${EVENTS} events written meanwhile):`,
  );
  const pgSchema = freshSchema('claims');
  const sqliteClaims = await openSqliteStorage({ path: join(dir, 'claims.db') });
  const contenders = [
    ['SQLite', [sqliteClaims, sqliteClaims, sqliteClaims, sqliteClaims]],
    [
      'PostgreSQL',
      await Promise.all(
        Array.from({ length: 4 }, () =>
          openPostgresStorage({
            url: server.url,
            schema: pgSchema,
            poolSize: 4,
            acquireTimeoutMs: 60_000,
          }),
        ),
      ),
    ],
  ];
  for (const [name, loops] of contenders) {
    const r = await claimRace(loops);
    console.log(
      `  ${name.padEnd(11)} ${r.batches} batches in ${r.seconds.toFixed(1)} s, ` +
        `${Math.round(r.claims / r.seconds).toLocaleString('en')} claims/s (${r.refused} refused), ` +
        `${r.committed} events committed, ${r.twice} committed twice, ${r.lost} never committed`,
    );
    for (const storage of new Set(loops)) await storage.close();
  }
  console.log(`load average at the end ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
