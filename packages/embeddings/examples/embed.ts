// examples/embed.ts: a prompt and two memories embedded, the memories ranked by cosine.
import { cosine, EmbeddingError, loadEmbedder } from '@kiro-learn/embeddings';

try {
  const embedder = await loadEmbedder(); // all-MiniLM-L6-v2, in a worker thread
  const [prompt] = await embedder.embed(['the payment callback keeps getting rejected'], {
    purpose: 'query',
  });
  const memories = [
    'Stripe webhook signature verification fails',
    'Sourdough needs a warm kitchen',
  ];
  const vectors = await embedder.embed(memories);
  const ranked = memories
    .map((text, i) => ({ text, score: cosine(prompt!, vectors[i]!) }))
    .sort((a, b) => b.score - a.score);
  console.log(embedder.modelId, embedder.runtime, ranked);
  await embedder.close();
} catch (error) {
  if (!(error instanceof EmbeddingError)) throw error;
  console.error(`${error.code}: ${error.message}`);
  process.exitCode = 1;
}
