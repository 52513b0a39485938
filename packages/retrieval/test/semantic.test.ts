import { type Embedder, loadEmbedder } from '@kiro-learn/embeddings';
import type { MemoryRecord } from '@kiro-learn/schema';
import { type StorageBackend, tokenize } from '@kiro-learn/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRetriever, embeddingText, type QueryEmbedder } from '../src/index.js';
import { NS, openTemp, record } from './helpers.js';

// The real model, loaded once for the file.
let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadEmbedder();
});
afterAll(async () => {
  await embedder?.close();
});

const webhook = () =>
  record({
    title: 'Stripe webhook signature verification fails',
    summary: 'constructEvent threw because express.json() had parsed the body before it.',
    facts: ['Mount express.raw on /webhooks/stripe'],
    concepts: ['stripe', 'webhooks'],
    observation_type: 'error',
  });
const distractors = (namespace = NS) => [
  record({
    namespace,
    title: 'Money is stored as integer cents',
    summary: 'Floats drifted by a cent on refunds; all amounts are integers now.',
  }),
  record({
    namespace,
    title: 'Redis cache for product listings',
    summary: 'Listing pages cache for 60 seconds; invalidated on product update.',
  }),
  record({
    namespace,
    title: 'Postgres connection pool size is 20',
    summary: 'Raised from 10 after timeouts during the sale.',
  }),
];
const PARAPHRASE = 'the payment callback keeps getting rejected';
// The tests that need the model to answer give it time: a loaded machine can take longer
// than the default 500 ms budget (the budget itself has a test of its own below).
const LOADED = 30_000;

async function store(storage: StorageBackend, records: MemoryRecord[]): Promise<void> {
  for (const r of records) await storage.putRecord(r);
  const vectors = await embedder.embed(records.map(embeddingText));
  await storage.putVectors(
    embedder.modelId,
    records.map((r, i) => ({ recordId: r.record_id, vector: vectors[i]! })),
  );
}

describe('semantic retrieval', () => {
  it('finds a record by a paraphrase that shares no word with it', async () => {
    const storage = await openTemp();
    const hit = webhook();
    await store(storage, [hit, ...distractors()]);
    const shared = tokenize(PARAPHRASE).filter((w) => tokenize(embeddingText(hit)).includes(w));
    expect(shared).toEqual([]);

    const lexical = createRetriever({ storage, log: false });
    expect((await lexical.retrieve({ namespace: NS, prompt: PARAPHRASE })).records).toEqual([]);
    const hybrid = createRetriever({
      storage,
      log: false,
      semantic: { embedder },
      budgetMs: LOADED,
    });
    const result = await hybrid.retrieve({ namespace: NS, prompt: PARAPHRASE });
    expect(result.records[0]).toBe(hit.record_id);
    expect(result.context).toContain('Stripe webhook signature verification fails');
    const searched = await hybrid.search({ namespace: NS, query: PARAPHRASE });
    expect(searched[0]?.record.record_id).toBe(hit.record_id);
  });

  it('never brings back a deleted record', async () => {
    const storage = await openTemp();
    const hit = webhook();
    await store(storage, [hit, ...distractors()]);
    const retriever = createRetriever({
      storage,
      log: false,
      semantic: { embedder },
      budgetMs: LOADED,
    });
    expect((await retriever.retrieve({ namespace: NS, prompt: PARAPHRASE })).records).toContain(
      hit.record_id,
    );
    await storage.deleteRecord(hit.record_id);
    const after = await retriever.retrieve({ namespace: NS, prompt: PARAPHRASE });
    expect(after.records).not.toContain(hit.record_id);
    expect(after.context).not.toContain('Stripe');
  });

  it("never answers from another namespace's vectors, even one differing only in _ or %", async () => {
    const storage = await openTemp();
    const [mine, other, third] = [
      '/actor/a_b/project/p/',
      '/actor/a%b/project/p/',
      '/actor/axb/project/p/',
    ];
    const secret = { ...webhook(), namespace: other! };
    await store(storage, [secret, { ...webhook(), namespace: third! }, ...distractors(mine)]);
    const retriever = createRetriever({
      storage,
      log: false,
      semantic: { embedder },
      budgetMs: LOADED,
    });
    const result = await retriever.retrieve({ namespace: mine!, prompt: PARAPHRASE });
    expect(result.context).not.toContain('Stripe');
    const found = await retriever.search({ namespace: mine!, query: PARAPHRASE, limit: 10 });
    expect(found.every((hit) => hit.record.namespace === mine)).toBe(true);
  });

  it('is lexical while no model is loaded', async () => {
    const storage = await openTemp();
    await store(storage, [webhook(), ...distractors()]);
    const lexical = createRetriever({ storage, log: false });
    const unloaded = createRetriever({
      storage,
      log: false,
      semantic: { embedder: () => undefined },
    });
    for (const prompt of [PARAPHRASE, 'stripe webhook signature', 'integer cents refunds']) {
      const [a, b] = await Promise.all([
        lexical.retrieve({ namespace: NS, prompt }),
        unloaded.retrieve({ namespace: NS, prompt }),
      ]);
      expect(b.records).toEqual(a.records);
      expect(b.error).toBeUndefined();
    }
  });

  it('keeps to the budget with an embedder that never answers: lexical results, no error', async () => {
    const storage = await openTemp();
    const hit = webhook();
    await store(storage, [hit, ...distractors()]);
    const stuck: QueryEmbedder = { modelId: embedder.modelId, embed: () => new Promise(() => {}) };
    const failing: QueryEmbedder = {
      modelId: embedder.modelId,
      embed: () => Promise.reject(new Error('model crashed')),
    };
    for (const slow of [stuck, failing]) {
      const errors: unknown[] = [];
      const retriever = createRetriever({
        storage,
        log: false,
        budgetMs: 300,
        semantic: { embedder: slow },
        onError: (e) => errors.push(e),
      });
      const result = await retriever.retrieve({
        namespace: NS,
        prompt: 'stripe webhook signature',
      });
      expect(result.timedOut).toBe(false);
      expect(result.error).toBeUndefined();
      expect(result.records).toEqual([hit.record_id]);
      expect(errors.length).toBe(slow === failing ? 1 : 0);
    }
  });
});
