import { type Embedder, type LoadEmbedderOptions, loadEmbedder } from '@kiro-learn/embeddings';
import { createRetriever, embeddingText } from '@kiro-learn/retrieval';
import type { MemoryRecord } from '@kiro-learn/schema';
import type { SqliteStorage } from '@kiro-learn/storage';

/**
 * A ranker under evaluation: set up once per set on the real store holding that set's
 * records (one namespace per project), then asked for each prompt.
 *
 * To add one, append a `RankerFactory` to RANKERS: it becomes a column of every table.
 */
export interface RankerContext {
  /** A real SQLite store holding every record of the set. */
  storage: SqliteStorage;
  /** The set's records as stored (record ids are fresh per run). */
  records: readonly MemoryRecord[];
  /** The eval's clock, for recency. */
  now: number;
}

/** One prompt of a set as a ranker sees it. */
export interface RankerQuery {
  /** The project's namespace: a ranker must answer from it alone. */
  namespace: string;
  prompt: string;
}

/** Record ids, best first; the tables read the first 5 (return up to 10). */
export type Ranker = (query: RankerQuery) => Promise<string[]>;

export interface RankerFactory {
  /** Column heading, one short word. */
  name: string;
  setup(context: RankerContext): Promise<Ranker> | Ranker;
}

/** Today's retrieval: storage's BM25 with the retriever's boosts and recency, as `search` ranks. */
export const lexical: RankerFactory = {
  name: 'lexical',
  setup({ storage, now }) {
    const retriever = createRetriever({ storage, now: () => now, log: false });
    return async ({ namespace, prompt }) =>
      (await retriever.search({ namespace, query: prompt, limit: 10 })).map(
        (hit) => hit.record.record_id,
      );
  },
};

// The real model, loaded once for the whole run; record vectors cached by text, so the
// semantic and hybrid columns embed each record once.
let model: Promise<Embedder> | undefined;
const vectors = new Map<string, Float32Array>();

/**
 * `KIRO_LEARN_EVAL_EMBEDDING=fp32:256` runs the model at another precision and token limit
 * (default: the collector's, int8 and 128 tokens), to measure what they cost in recall;
 * `int8:128:batch` embeds the records in batches, as `kiro-learn reindex` does.
 */
function embeddingOptions(spec: string | undefined): LoadEmbedderOptions {
  if (!spec) return {};
  const [precision, maxTokens, batch] = spec.split(':');
  if ((precision !== 'fp32' && precision !== 'int8') || (batch && batch !== 'batch')) {
    throw new Error(`KIRO_LEARN_EVAL_EMBEDDING: ${spec} is not <fp32|int8>[:<max tokens>[:batch]]`);
  }
  return { precision, ...(maxTokens ? { maxTokens: Number(maxTokens) } : {}) };
}
const batched = process.env.KIRO_LEARN_EVAL_EMBEDDING?.endsWith(':batch') ?? false;

/**
 * Loads the model and stores a vector for every record of the set (as the collector does),
 * of `textOf` (default embeddingText: what the collector embeds). Vectors already stored
 * for the set are replaced.
 */
export async function embedSet(
  { storage, records }: RankerContext,
  textOf: (record: MemoryRecord) => string = embeddingText,
): Promise<Embedder> {
  model ??= loadEmbedder(embeddingOptions(process.env.KIRO_LEARN_EVAL_EMBEDDING));
  const embedder = await model;
  const missing = records.filter((r) => !vectors.has(textOf(r)));
  const fresh = await embedder.embed(missing.map(textOf), { batch: batched });
  for (const [i, r] of missing.entries()) vectors.set(textOf(r), fresh[i]!);
  await storage.deleteVectorsExcept('none');
  await storage.putVectors(
    embedder.modelId,
    records.map((r) => ({ recordId: r.record_id, vector: vectors.get(textOf(r))! })),
  );
  return embedder;
}

/** Vectors alone: the records nearest the prompt's embedding (all-MiniLM-L6-v2). */
export const semantic: RankerFactory = {
  name: 'semantic',
  async setup(context) {
    const embedder = await embedSet(context);
    return async ({ namespace, prompt }) => {
      const [vector] = await embedder.embed([prompt], { purpose: 'query' });
      const hits = await context.storage.searchVectors({
        namespace,
        modelId: embedder.modelId,
        vector: vector!,
        limit: 10,
      });
      return hits.map((hit) => hit.recordId);
    };
  },
};

/** What the collector ranks with: lexical and semantic fused (DEFAULT_HYBRID_WEIGHTS). */
export const hybrid: RankerFactory = {
  name: 'hybrid',
  async setup(context) {
    const embedder = await embedSet(context);
    // A generous budget: the eval measures ranking, not this machine's load.
    const retriever = createRetriever({
      storage: context.storage,
      now: () => context.now,
      log: false,
      budgetMs: 60_000,
      semantic: { embedder },
    });
    return async ({ namespace, prompt }) =>
      (await retriever.search({ namespace, query: prompt, limit: 10 })).map(
        (hit) => hit.record.record_id,
      );
  },
};

export const RANKERS: readonly RankerFactory[] = [lexical, semantic, hybrid];
