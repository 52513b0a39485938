// pnpm bench: retrieve() latency over a SQLite file of synthetic records, with Zipf-drawn
// prompts, beside two baselines measured in the same run: bare `node -e ''` start-up and
// a bare storage.searchRecords of the same prompts. Prints median and p99; asserts nothing.
// BENCH_SIZES=10000,100000,1000000 chooses the record counts (default 10k and 100k).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetriever } from '@kiro-learn/retrieval';
import { openSqliteStorage } from '@kiro-learn/storage';
import { loadRecords, PROJECTS, PROMPTS, stats, syntheticPrompt, WARMUP } from './corpus.ts';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);

const row = (what: string, s: { median: number; p99: number }) =>
  console.log(
    `  ${what.padEnd(44)}${s.median.toFixed(2).padStart(10)}${s.p99.toFixed(2).padStart(10)}`,
  );

const nodeStart: number[] = [];
for (let i = 0; i < 10; i++) {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  nodeStart.push(performance.now() - started);
}
console.log(`retrieve() latency, ms (${PROMPTS} Zipf prompts of 12 words, ${PROJECTS} projects)\n`);
console.log(`  ${'what'.padEnd(44)}${'median'.padStart(10)}${'p99'.padStart(10)}`);
row("baseline: node -e '' start-up", stats(nodeStart));

const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-bench-'));
try {
  const storage = await openSqliteStorage({ path: join(dir, 'bench.db') });
  const retriever = createRetriever({ storage });
  const unlogged = createRetriever({ storage, log: false });
  // The same without the repeat rule, to show what comparing records costs.
  const repeating = createRetriever({ storage, log: false, maxOverlap: 1 });
  let count = 0;
  for (const size of SIZES) {
    const loadStarted = performance.now();
    count = await loadRecords(storage, count, size);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const prompts = Array.from({ length: PROMPTS + WARMUP }, syntheticPrompt);
    const bare: number[] = [];
    const ours: number[] = [];
    const quiet: number[] = [];
    const noRule: number[] = [];
    const found: number[] = [];
    for (const [i, p] of prompts.entries()) {
      let started = performance.now();
      await storage.searchRecords({ namespace: p.namespace, query: p.prompt, limit: 40 });
      if (i >= WARMUP) bare.push(performance.now() - started);
      started = performance.now();
      const result = await retriever.retrieve(p);
      if (i >= WARMUP) {
        ours.push(performance.now() - started);
        found.push(result.records.length);
      }
      started = performance.now();
      await unlogged.retrieve({ ...p, sessionId: `q${p.sessionId}` });
      if (i >= WARMUP) quiet.push(performance.now() - started);
      started = performance.now();
      await repeating.retrieve({ ...p, sessionId: `r${p.sessionId}` });
      if (i >= WARMUP) noRule.push(performance.now() - started);
    }
    const mean = found.reduce((a, b) => a + b, 0) / found.length;
    console.log(
      `\n${size.toLocaleString('en')} records (loaded in ${loadSeconds.toFixed(1)} s; ${mean.toFixed(1)} records per context)`,
    );
    row('baseline: storage.searchRecords (limit 40)', stats(bare));
    row('retrieve() (log written in the background)', stats(ours));
    row('retrieve() with log: false', stats(quiet));
    row('retrieve() with log: false, no repeat rule', stats(noRule));
  }
  await retriever.flush();
  await storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
