// pnpm bench: retrieve() latency over a SQLite file of synthetic records, with Zipf-drawn
// prompts, beside two baselines measured in the same run: bare `node -e ''` start-up and
// a bare storage.searchRecords of the same prompts. Prints median and p99; asserts nothing.
// BENCH_SIZES=10000,100000,1000000 chooses the record counts (default 10k and 100k).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetriever } from '@kiro-learn/retrieval';
import { buildNamespace, type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const PROJECTS = 10;
const VOCABULARY = 30_000;
const PROMPTS = 300;
const WARMUP = 30;

// Deterministic: the same records and prompts on every run.
let seed = 42;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const syllables = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'ze',
  'po',
  'qu',
  'ba',
  'de',
  'fi',
  'go',
  'hu',
];
const words = Array.from({ length: VOCABULARY }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length))
    word += syllables[n % syllables.length];
  return word;
});
// Zipf (s = 1): word rank r is drawn with probability ∝ 1/r, like natural text.
const cumulative: number[] = [];
words.reduce((sum, _, r) => {
  cumulative.push(sum + 1 / (r + 1));
  return sum + 1 / (r + 1);
}, 0);
function zipfWord(): string {
  const x = random() * cumulative.at(-1)!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return words[lo]!;
}
const phrase = (n: number) => Array.from({ length: n }, zipfWord).join(' ');
const namespaces = Array.from({ length: PROJECTS }, (_, i) =>
  buildNamespace('bench', `project-${i}`),
);

function syntheticRecord(): MemoryRecord {
  const time = Date.now() - Math.floor(random() * 365 * 86_400_000);
  return {
    record_id: newRecordId(time),
    namespace: namespaces[Math.floor(random() * PROJECTS)]!,
    strategy: 'bench',
    title: phrase(6),
    summary: phrase(40),
    facts: [phrase(8), phrase(8)],
    concepts: [phrase(2), phrase(1)],
    files_touched: [`src/${zipfWord()}/${zipfWord()}.ts`],
    observation_type: 'discovery',
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
  };
}

function stats(samples: number[]): { median: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p99: at(0.99) };
}

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
  let count = 0;
  for (const size of SIZES) {
    const loadStarted = performance.now();
    while (count < size) {
      const batch = Array.from({ length: Math.min(5000, size - count) }, syntheticRecord);
      await storage.commitExtraction({
        namespace: batch[0]!.namespace,
        records: batch,
        eventIds: [],
      });
      count += batch.length;
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const prompts = Array.from({ length: PROMPTS + WARMUP }, () => ({
      namespace: namespaces[Math.floor(random() * PROJECTS)]!,
      prompt: phrase(12),
      sessionId: `s${Math.floor(random() * 50)}`,
    }));
    const bare: number[] = [];
    const ours: number[] = [];
    const quiet: number[] = [];
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
    }
    const mean = found.reduce((a, b) => a + b, 0) / found.length;
    console.log(
      `\n${size.toLocaleString('en')} records (loaded in ${loadSeconds.toFixed(1)} s; ${mean.toFixed(1)} records per context)`,
    );
    row('baseline: storage.searchRecords (limit 40)', stats(bare));
    row('retrieve() (search, rank, format, log)', stats(ours));
    row('retrieve() without the log write', stats(quiet));
  }
  await storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
