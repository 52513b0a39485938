import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cosine,
  DEFAULT_MODEL_ID,
  type Embedder,
  EmbeddingError,
  loadEmbedder,
} from '../src/index.js';

// One model per runtime for the whole file: loading costs seconds.
let onnx: Embedder;
let wasm: Embedder;
beforeAll(async () => {
  [onnx, wasm] = await Promise.all([
    loadEmbedder({ runtime: 'onnxruntime-node' }),
    loadEmbedder({ runtime: 'wasm' }),
  ]);
});
afterAll(async () => {
  await Promise.all([onnx?.close(), wasm?.close()]);
});

const TEXTS = [
  'the payment callback keeps getting rejected',
  'Stripe webhook signature verification fails',
  'how do I bake sourdough bread',
  'Café naïve résumé: 東京 test_case foo.bar(x=1) `--flag`',
  'word '.repeat(300),
];

describe('the default model', () => {
  it('gives unit vectors of 384 dimensions under its id', async () => {
    expect(onnx.modelId).toBe(DEFAULT_MODEL_ID);
    expect(onnx.dimension).toBe(384);
    const [v] = await onnx.embed(['hello']);
    expect(v).toHaveLength(384);
    expect(cosine(v!, v!)).toBeCloseTo(1, 4);
  });

  it('puts a paraphrase nearer than an unrelated text', async () => {
    const [prompt, record, other] = await onnx.embed(TEXTS.slice(0, 3), { purpose: 'query' });
    expect(cosine(prompt!, record!)).toBeGreaterThan(cosine(prompt!, other!) + 0.2);
  });

  it('gives the same vectors from onnxruntime-node and the WASM engine', async () => {
    expect(wasm.runtime).toBe('wasm');
    expect(wasm.modelId).toBe(onnx.modelId);
    const [a, b] = await Promise.all([onnx.embed(TEXTS), wasm.embed(TEXTS)]);
    for (let i = 0; i < TEXTS.length; i++) expect(cosine(a[i]!, b[i]!)).toBeGreaterThan(0.99);
  });

  it('answers queries queued behind documents, in order of the texts', async () => {
    const docs = onnx.embed(TEXTS.slice(0, 3));
    const query = onnx.embed([TEXTS[1]!], { purpose: 'query' });
    const [d, [q]] = await Promise.all([docs, query]);
    expect(cosine(d[1]!, q!)).toBeCloseTo(1, 4);
  });
});

describe('documents in a batch', () => {
  // Lengths from two words to past the token limit, in no order: several runs of texts.
  const many = Array.from(
    { length: 24 },
    (_, i) => `${TEXTS[i % 4]} ${'and the retry queue drains slowly '.repeat((i * 7) % 13)}`,
  );

  it('get the vectors of one text at a time, in the order of the texts', async () => {
    const fp32 = await loadEmbedder({ runtime: 'onnxruntime-node', precision: 'fp32' });
    try {
      const [one, batched, full, fullBatched] = await Promise.all([
        onnx.embed(many),
        onnx.embed(many, { batch: true }),
        fp32.embed(many),
        fp32.embed(many, { batch: true }),
      ]);
      expect(batched).toHaveLength(many.length);
      for (let i = 0; i < many.length; i++) {
        expect(cosine(full[i]!, fullBatched[i]!)).toBeCloseTo(1, 5);
        // int8 quantises a run's activations together: another rounding, as near to fp32.
        expect(cosine(one[i]!, batched[i]!)).toBeGreaterThan(0.99);
        expect(cosine(full[i]!, batched[i]!)).toBeGreaterThan(0.99);
      }
    } finally {
      await fp32.close();
    }
  });

  it('on the WASM engine too, and a query still gets its answer', async () => {
    const batched = wasm.embed(many.slice(0, 4), { batch: true });
    const [q] = await onnx.embed([many[0]!], { purpose: 'query' });
    const v = await batched;
    expect(v).toHaveLength(4);
    expect(cosine(v[0]!, q!)).toBeGreaterThan(0.99);
  });
});

describe('int8, token limit and threads', () => {
  it('int8 vectors (the default) stay within cosine 0.99 of fp32, on one thread or two', async () => {
    const [fp32, wide] = await Promise.all([
      loadEmbedder({ runtime: 'onnxruntime-node', precision: 'fp32' }),
      loadEmbedder({ runtime: 'onnxruntime-node', threads: 2 }),
    ]);
    try {
      const [a, b, c] = await Promise.all([
        fp32.embed(TEXTS),
        onnx.embed(TEXTS),
        wide.embed(TEXTS),
      ]);
      expect(fp32.modelId).toBe(onnx.modelId);
      for (let i = 0; i < TEXTS.length; i++) {
        expect(cosine(a[i]!, b[i]!)).toBeGreaterThan(0.99);
        expect(cosine(b[i]!, c[i]!)).toBeCloseTo(1, 4);
      }
    } finally {
      await Promise.all([fp32.close(), wide.close()]);
    }
  });

  it('embeds a text up to maxTokens: what follows does not change its vector', async () => {
    const short = await loadEmbedder({ runtime: 'onnxruntime-node', maxTokens: 16 });
    try {
      const head = 'stripe webhook signature verification fails after the router refactor';
      const [a, b] = await short.embed([
        head,
        `${head} ${'unrelated sourdough bread '.repeat(20)}`,
      ]);
      expect(cosine(a!, b!)).toBeCloseTo(1, 4);
      const [full] = await onnx.embed([`${head} ${'unrelated sourdough bread '.repeat(20)}`]);
      expect(cosine(a!, full!)).toBeLessThan(0.95);
    } finally {
      await short.close();
    }
  });
});

describe('a signal', () => {
  it('withdraws a query still queued: it rejects with aborted, and the rest is embedded', async () => {
    const docs = onnx.embed(TEXTS);
    const abandon = new AbortController();
    const query = onnx.embed(['nobody waits for this'], {
      purpose: 'query',
      signal: abandon.signal,
    });
    abandon.abort();
    const error = await query.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).code).toBe('aborted');
    expect(await docs).toHaveLength(TEXTS.length);
  });

  it('that has aborted already rejects at once', async () => {
    const error = await onnx
      .embed(['x'], { purpose: 'query', signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect((error as EmbeddingError).code).toBe('aborted');
  });
});

describe('a model directory', () => {
  it('that is empty is refused with model_not_found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kl-model-'));
    const error = await loadEmbedder({ modelDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).code).toBe('model_not_found');
  });

  it('with a tokenizer that is not WordPiece is refused with model_invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kl-model-'));
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ model: { type: 'BPE' } }));
    writeFileSync(join(dir, 'model.onnx'), 'not a model');
    const error = await loadEmbedder({ modelDir: dir }).catch((e: unknown) => e);
    expect((error as EmbeddingError).code).toBe('model_invalid');
  });
});
