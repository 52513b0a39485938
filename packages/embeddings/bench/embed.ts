// pnpm bench: the embedding model in each runtime, each in a fresh process: cold load
// (until a probe text is embedded), a 12-word prompt, a ~230-token record, document
// throughput and the process's RSS with the model loaded; beside `node -e ''` start-up
// measured in the same run. Prints median and p99; asserts nothing.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cosine, type EmbeddingRuntime, loadEmbedder } from '@kiro-learn/embeddings';

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

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { median: at(0.5), p99: at(0.99) };
};

async function child(runtime: EmbeddingRuntime): Promise<void> {
  const started = performance.now();
  const embedder = await loadEmbedder({ runtime });
  const loadMs = performance.now() - started;
  const time = async (text: string, n: number, purpose: 'query' | 'document') => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await embedder.embed([text], { purpose });
      ms.push(performance.now() - t);
    }
    return stats(ms);
  };
  const prompt = await time(PROMPT, 40, 'query');
  const record = await time(RECORD, runtime === 'wasm' ? 8 : 30, 'document');
  const batch = Array.from({ length: runtime === 'wasm' ? 10 : 40 }, (_, i) => `${RECORD} ${i}`);
  const t = performance.now();
  await embedder.embed(batch);
  const perSecond = batch.length / ((performance.now() - t) / 1000);
  const [vector] = await embedder.embed([RECORD]);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  await embedder.close();
  process.stdout.write(
    JSON.stringify({
      runtime: embedder.runtime,
      loadMs,
      prompt,
      record,
      perSecond,
      rssMb,
      vector: [...vector!],
    }),
  );
}

if (process.argv[2]) {
  await child(process.argv[2] as EmbeddingRuntime);
} else {
  const nodeStart: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    nodeStart.push(performance.now() - t);
  }
  const self = fileURLToPath(import.meta.url);
  const results = (['onnxruntime-node', 'wasm'] as const).map((runtime) => {
    const r = spawnSync(process.execPath, [self, runtime], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (r.status !== 0) return { runtime, error: r.stderr.split('\n')[0] };
    return JSON.parse(r.stdout) as {
      runtime: string;
      loadMs: number;
      prompt: { median: number; p99: number };
      record: { median: number; p99: number };
      perSecond: number;
      rssMb: number;
      vector: number[];
    };
  });
  const f = (n: number) => n.toFixed(1).padStart(9);
  console.log('all-MiniLM-L6-v2, one thread, each runtime in a fresh process (ms unless noted)\n');
  console.log(
    `  ${"baseline: node -e '' start-up".padEnd(40)} median${f(stats(nodeStart).median)}  p99${f(stats(nodeStart).p99)}`,
  );
  for (const r of results) {
    if ('error' in r) {
      console.log(`  ${r.runtime}: not available (${r.error})`);
      continue;
    }
    console.log(`\n  ${r.runtime}`);
    console.log(`    ${'cold load (to first vector)'.padEnd(38)}${f(r.loadMs)}`);
    console.log(
      `    ${'prompt, 12 words'.padEnd(38)} median${f(r.prompt.median)}  p99${f(r.prompt.p99)}`,
    );
    console.log(
      `    ${'record, ~230 tokens'.padEnd(38)} median${f(r.record.median)}  p99${f(r.record.p99)}`,
    );
    console.log(`    ${'records/s (~230 tokens each)'.padEnd(38)}${f(r.perSecond)}`);
    console.log(`    ${'process RSS with the model, MB'.padEnd(38)}${f(r.rssMb)}`);
  }
  const [a, b] = results;
  if (a && b && !('error' in a) && !('error' in b)) {
    const sim = cosine(Float32Array.from(a.vector), Float32Array.from(b.vector));
    console.log(`\n  cosine of the two runtimes' vectors for the record: ${sim.toFixed(5)}`);
  }
  console.log(
    `\n  machine: ${process.arch}, Node ${process.version}, shared and loaded (other jobs run)`,
  );
}
