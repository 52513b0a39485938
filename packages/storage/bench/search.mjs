// Storage benchmark: insert rate and search latency (p50/p99) at 100k and 1M memory
// records of realistic length, prompts drawn from a Zipf-distributed vocabulary.
// Usage: node bench/search.mjs [sizes...]   (default: 100000 1000000)
// Prints numbers and asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { environment, fmt, nodeStartupBaseline, summarize } from '../../../scripts/bench/stats.mjs';
import { makeRecord, namespaces, random, words } from './corpus.mjs';

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
if (sizes.length === 0) sizes.push(100_000, 1_000_000);

console.log(`storage bench — ${environment()}`);
const startup = nodeStartupBaseline(10);
console.log(`baseline: node -e '' start-up p50 ${fmt(startup.p50)}, p99 ${fmt(startup.p99)}`);

// BENCH_DB=path keeps (and reuses) the database, for profiling without re-inserting.
const keep = process.env.BENCH_DB;
const dir = keep ? dirname(keep) : mkdtempSync(join(tmpdir(), 'kiro-learn-bench-'));
try {
  const maxPostings = Number(process.env.BENCH_MAX_POSTINGS) || undefined;
  const storage = await openSqliteStorage({
    path: keep ?? join(dir, 'bench.db'),
    search: { maxPostings },
  });
  let inserted = (await storage.stats()).memories.total;
  for (const size of sizes) {
    const start = performance.now();
    const before = inserted;
    const chunk = 2000;
    while (inserted < size) {
      const n = Math.min(chunk, size - inserted);
      await Promise.all(
        Array.from({ length: n }, (_, k) => storage.putRecord(makeRecord(inserted + k))),
      );
      inserted += n;
    }
    // SQLite's impact-ordered search table takes new records in the background: the insert
    // rate counts it, and search is measured once it is complete.
    while ((await storage.impactBacklog?.()) > 0) await new Promise((r) => setTimeout(r, 100));
    const seconds = (performance.now() - start) / 1000;
    const prompts = Array.from({ length: 400 }, () => words(8 + Math.floor(random() * 30)));
    // point-lookup baseline on the same database: the cheapest query there is
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
    const rate = Math.round((inserted - before) / seconds);
    console.log(
      `${size.toLocaleString('en')} records: insert ${before === inserted ? 'skipped (database reused)' : `${rate.toLocaleString('en')} records/s`}, ` +
        `search p50 ${fmt(s.p50)} p99 ${fmt(s.p99)} max ${fmt(s.max)} (${hits}/${prompts.length} prompts with hits); ` +
        `point lookup p50 ${fmt(l.p50)}; db ${((await storage.sizeBytes()) / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  await storage.close();
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
