// examples/semantic.ts: records embedded with putVectors, then found by meaning.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbedder } from '@kiro-learn/embeddings';
import { createRetriever, embeddingText } from '@kiro-learn/retrieval';
import { buildNamespace, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-example-'));
const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
const embedder = await loadEmbedder(); // all-MiniLM-L6-v2, in a worker thread
const namespace = buildNamespace('alice', 'payments-api');

const records = [
  newRecord({
    namespace,
    title: 'Stripe webhook signature verification fails',
    summary: 'constructEvent threw because express.json() had parsed the body first.',
  }),
  newRecord({
    namespace,
    title: 'Money is stored as integer cents',
    summary: 'Floats drifted by a cent on refunds.',
  }),
];
for (const record of records) await storage.putRecord(record);
// Embed what retrieval embeds (embeddingText), under the model's id.
const vectors = await embedder.embed(records.map(embeddingText));
await storage.putVectors(
  embedder.modelId,
  records.map((record, i) => ({ recordId: record.record_id, vector: vectors[i]! })),
);

// No word of the prompt is in the record: only the semantic side finds it.
const retriever = createRetriever({ storage, log: false, semantic: { embedder } });
const prompt = 'the payment callback keeps getting rejected';
const [best] = await retriever.search({ namespace, query: prompt, limit: 1 });
console.log(best?.record.title);
await embedder.close();
await storage.close();
if (best?.record.title !== 'Stripe webhook signature verification fails') process.exit(1);
