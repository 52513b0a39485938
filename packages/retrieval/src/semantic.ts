import type { MemoryRecord } from '@kiro-learn/schema';
import type { VectorSearchOptions } from '@kiro-learn/storage';

/**
 * What retrieval needs of an embedding model (`@kiro-learn/embeddings`' `Embedder` fits;
 * retrieval does not depend on it, so embedding retrieval stays light).
 */
export interface QueryEmbedder {
  /** Vectors of different models are never compared. */
  readonly modelId: string;
  /** A `signal` that aborts withdraws the texts if they have not started (they reject). */
  embed(
    texts: readonly string[],
    options?: { purpose?: 'query' | 'document'; signal?: AbortSignal },
  ): Promise<Float32Array[]>;
}

/** Where prompt vectors are matched (a StorageBackend fits). */
export interface VectorSource {
  searchVectors(query: VectorSearchOptions): Promise<Array<{ recordId: string; score: number }>>;
}

/** Semantic search for a retriever: a prompt embedder and the records' vectors. */
export interface SemanticOptions {
  /**
   * The model, or a function giving it once it has loaded (undefined until then, or when
   * it failed: retrieval is then lexical).
   */
  embedder: QueryEmbedder | (() => QueryEmbedder | undefined);
  /** Where record vectors are searched (default: the retriever's storage). */
  vectors?: VectorSource;
  /**
   * Most of the latency budget the prompt's embedding and vector scan may take, in ms
   * (default half of budgetMs); past it the result is lexical only.
   */
  budgetMs?: number;
}

/**
 * The text of a record that is embedded: title, summary, facts and concepts (file paths
 * are left to the lexical ranker), then the questions the record answers, last (the
 * model reads a limited number of tokens, so a long record's own text comes first and its
 * questions count for less). Whoever writes vectors and whoever searches them must use the
 * same text, so it lives here.
 */
export function embeddingText(record: MemoryRecord): string {
  return [
    record.title,
    record.summary,
    ...record.facts,
    ...(record.concepts.length > 0 ? [record.concepts.join(', ')] : []),
    ...(record.questions ?? []),
  ].join('\n');
}

/** The embedder in force now, if any. */
export function currentEmbedder(semantic: SemanticOptions | undefined): QueryEmbedder | undefined {
  if (!semantic) return undefined;
  const { embedder } = semantic;
  return typeof embedder === 'function' ? embedder() : embedder;
}
