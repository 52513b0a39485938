// pnpm bench: the embedding model in each runtime and precision, each in a fresh process:
// cold load (until a probe text is embedded), a 12-word prompt, a ~230-token record, and
// reindex throughput (records/s) on one worker and on one worker per core, beside this
// CPU's own matmul rate measured in the same run (onnxruntime's GEMM on one thread, at the
// model's shapes): the records/s that rate allows is the ceiling each row is held against.
// Also `node -e ''` start-up and the load average. Prints median and p99; asserts nothing.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  cosine,
  DEFAULT_MAX_TOKENS,
  type Embedder,
  type EmbeddingRuntime,
  loadEmbedder,
  type WeightPrecision,
} from '@kiro-learn/embeddings';
import { gemmRates, gemmSeconds } from './gemm.ts';

const PROMPT = 'the payment callback keeps getting rejected after we moved the webhook route';
// About 230 WordPiece tokens: a long memory record (title, summary, facts, concepts).
const RECORD = [
  'Stripe webhook signature verification fails after the router refactor',
  'constructEvent threw "No signatures found matching the expected signature for payload" because express.json() ran before the webhook route and replaced the raw request body with a parsed object. Stripe signs the exact bytes it sends, so any re-serialisation breaks the check. The fix mounts express.raw({ type: "application/json" }) on /webhooks/stripe before the JSON parser and passes req.body (a Buffer) to constructEvent together with the Stripe-Signature header and the endpoint secret from STRIPE_WEBHOOK_SECRET.',
  'The test suite now posts a signed fixture payload through the real router.',
  'Local development uses stripe listen --forward-to localhost:3000/webhooks/stripe, which prints its own signing secret; it differs from the dashboard secret.',
  'Retries from Stripe arrive for up to three days, so handlers must be idempotent on event.id.',
  'stripe, webhooks, express, signature verification, raw body',
].join('\n');
const RECORD_TOKENS = 230;

interface Config {
  name: string;
  runtime: EmbeddingRuntime;
  precision: WeightPrecision;
  maxTokens: number;
}
const CONFIGS: Config[] = [
  {
    name: 'fp32, 256 tokens (before)',
    runtime: 'onnxruntime-node',
    precision: 'fp32',
    maxTokens: 256,
  },
  { name: 'fp32, 128 tokens', runtime: 'onnxruntime-node', precision: 'fp32', maxTokens: 128 },
  {
    name: 'int8, 128 tokens (default)',
    runtime: 'onnxruntime-node',
    precision: 'int8',
    maxTokens: DEFAULT_MAX_TOKENS,
  },
  { name: 'WASM, 128 tokens (the fallback)', runtime: 'wasm', precision: 'fp32', maxTokens: 128 },
];

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { median: at(0.5), p99: at(0.99) };
};

/** Texts per second over `texts`, spread over the embedders (one text per job each). */
async function throughput(embedders: Embedder[], texts: string[]): Promise<number> {
  const started = performance.now();
  await Promise.all(texts.map((text, i) => embedders[i % embedders.length]!.embed([text])));
  return texts.length / ((performance.now() - started) / 1000);
}

async function child(config: Config): Promise<void> {
  const options = {
    runtime: config.runtime,
    precision: config.precision,
    maxTokens: config.maxTokens,
  };
  const started = performance.now();
  const embedder = await loadEmbedder(options);
  const loadMs = performance.now() - started;
  const wasm = config.runtime === 'wasm';
  const time = async (text: string, n: number, purpose: 'query' | 'document') => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await embedder.embed([text], { purpose });
      ms.push(performance.now() - t);
    }
    return stats(ms);
  };
  const prompt = await time(PROMPT, wasm ? 10 : 40, 'query');
  const record = await time(RECORD, wasm ? 4 : 20, 'document');
  const texts = Array.from({ length: wasm ? 6 : 40 }, (_, i) => `${RECORD} ${i}`);
  const oneWorker = await throughput([embedder], texts);
  // Before a second model is loaded: the process with one.
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  let twoWorkers: number | undefined;
  if (!wasm) {
    const second = await loadEmbedder(options);
    twoWorkers = await throughput([embedder, second], [...texts, ...texts]);
    await second.close();
  }
  const [vector] = await embedder.embed([RECORD]);
  await embedder.close();
  process.stdout.write(
    JSON.stringify({ loadMs, prompt, record, oneWorker, twoWorkers, rssMb, vector: [...vector!] }),
  );
}

interface Result {
  loadMs: number;
  prompt: { median: number; p99: number };
  record: { median: number; p99: number };
  oneWorker: number;
  twoWorkers?: number;
  rssMb: number;
  vector: number[];
}

function inChild<T>(args: string[]): T | { error: string } {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) return { error: (r.stderr || 'failed').trim().split('\n').at(-1)! };
  return JSON.parse(r.stdout) as T;
}

if (process.argv[2] === 'matmul') {
  process.stdout.write(JSON.stringify(await gemmRates()));
} else if (process.argv[2]) {
  await child(CONFIGS[Number(process.argv[2])]!);
} else {
  const load = loadavg()[0]!.toFixed(1);
  const nodeStart: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    nodeStart.push(performance.now() - t);
  }
  const matmul = inChild<{ fp32: number; int8: number }>(['matmul']);
  const results = CONFIGS.map((_, i) => inChild<Result>([String(i)]));
  const f = (n: number, width = 9, digits = 1) => n.toFixed(digits).padStart(width);
  console.log(
    `all-MiniLM-L6-v2, each configuration in a fresh process (ms unless noted); load average ${load} on ${process.arch}\n`,
  );
  console.log(
    `  ${"baseline: node -e '' start-up".padEnd(40)} median${f(stats(nodeStart).median)}  p99${f(stats(nodeStart).p99)}`,
  );
  const tokens = (c: Config) => Math.min(c.maxTokens, RECORD_TOKENS);
  if ('error' in matmul) console.log(`  matmul rate: not measured (${matmul.error})`);
  else {
    console.log(
      `  ${'baseline: this CPU, one thread, GEMM 128×384×1536'.padEnd(40)} fp32 ${f(matmul.fp32, 6)} GFLOP/s   int8 ${f(matmul.int8, 6)} GFLOP/s`,
    );
  }
  for (const [i, r] of results.entries()) {
    const config = CONFIGS[i]!;
    console.log(`\n  ${config.name}`);
    if ('error' in r) {
      console.log(`    not available (${r.error})`);
      continue;
    }
    console.log(`    ${'cold load (to first vector)'.padEnd(38)}${f(r.loadMs)}`);
    console.log(
      `    ${'prompt, 12 words'.padEnd(38)} median${f(r.prompt.median)}  p99${f(r.prompt.p99)}`,
    );
    console.log(
      `    ${`record, ~${RECORD_TOKENS} tokens (${tokens(config)} embedded)`.padEnd(38)} median${f(r.record.median)}  p99${f(r.record.p99)}`,
    );
    // int8 runs part of its work in fp32 (each FFN down-projection, attention): see gemm.ts.
    const limit =
      'error' in matmul ? undefined : 1 / gemmSeconds(tokens(config), config.precision, matmul);
    const ofLimit = (rate: number) => (limit ? ` = ${(rate / limit).toFixed(2)}× the limit` : '');
    console.log(
      `    ${'reindex, one worker, records/s'.padEnd(38)}${f(r.oneWorker)}${limit ? `   (the matmul rate allows ${limit.toFixed(1)}/s per core${ofLimit(r.oneWorker)})` : ''}`,
    );
    if (r.twoWorkers !== undefined) {
      console.log(
        `    ${'reindex, a worker per core, records/s'.padEnd(38)}${f(r.twoWorkers)}   (100k records in ${f(100_000 / r.twoWorkers / 60, 1, 0)} min)`,
      );
    } else {
      console.log(
        `    ${'100k records on one worker'.padEnd(38)}${f(100_000 / r.oneWorker / 3600, 9, 1)} h`,
      );
    }
    console.log(`    ${'process RSS with the model, MB'.padEnd(38)}${f(r.rssMb)}`);
  }
  const vectors = results.map((r) => ('error' in r ? undefined : Float32Array.from(r.vector)));
  const before = vectors[0];
  if (before) {
    console.log("\n  cosine of each configuration's vector for the record to the first's:");
    for (const [i, v] of vectors.entries()) {
      if (i > 0 && v)
        console.log(`    ${CONFIGS[i]!.name.padEnd(36)}${f(cosine(before, v), 9, 4)}`);
    }
  }
  const onnx = results[2];
  const wasm = results[3];
  if (onnx && wasm && !('error' in onnx) && !('error' in wasm)) {
    console.log(
      `\n  WASM / onnxruntime int8, one worker each: ${(wasm.oneWorker / onnx.oneWorker).toFixed(3)}× (the slow path; status and doctor name it)`,
    );
  }
  console.log(`\n  load average at the end: ${loadavg()[0]!.toFixed(1)} (2 cores, shared)`);
}
