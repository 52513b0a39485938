import type { MemoryRecord } from '@kiro-learn/schema';
import type { VectorHit } from '../vectors/vector-index.js';

export type { VectorHit } from '../vectors/vector-index.js';

/** Record vectors for semantic search: one vector per record and embedding model. */
export interface VectorStore {
  /**
   * Stores vectors of records for one model. A vector whose record does not exist (any
   * more) is skipped; one the record already has for this model is kept (a change to the
   * record's text deletes its vectors, so an existing one is current). Deleting a record
   * deletes its vectors. Returns how many were stored.
   */
  putVectors(modelId: string, vectors: readonly RecordVector[]): Promise<number>;
  /**
   * Exact nearest-neighbour search (cosine) over the vectors of one namespace (exact
   * string equality) and one model, best first. Kept in step with every write and delete,
   * including other processes'. Never throws on a query of the wrong dimension: no hits.
   */
  searchVectors(query: VectorSearchOptions): Promise<VectorHit[]>;
  /**
   * Records with no vector for this model, newest first, a page at a time: what
   * `kiro-learn reindex` embeds. Pass `nextCursor` back to continue; a page may be short.
   */
  recordsWithoutVector(query: MissingVectorsOptions): Promise<MissingVectorsPage>;
  /** How many records there are, and how many of them have a vector for this model. */
  vectorCoverage(modelId: string, namespace?: string): Promise<VectorCoverage>;
  /** Deletes the vectors of every model but this one (after a model change). Returns how many. */
  deleteVectorsExcept(modelId: string): Promise<number>;
}

/** A record's embedding. */
export interface RecordVector {
  /** The record embedded. */
  recordId: string;
  /** Its embedding, by the model putVectors names. */
  vector: Float32Array;
}

export interface VectorSearchOptions {
  /** Exact namespace (required: vectors never answer across namespaces). */
  namespace: string;
  /** The embedding model the vectors must be of. */
  modelId: string;
  /** The query's embedding (any length; compared by direction). */
  vector: Float32Array;
  /** Most hits. */
  limit: number;
}

export interface MissingVectorsOptions {
  /** The embedding model the records lack a vector of. */
  modelId: string;
  /** Only this namespace (exact); omitted: every namespace. */
  namespace?: string;
  /** Most records on the page. */
  limit: number;
  /** From the previous page. */
  cursor?: string;
}

export interface MissingVectorsPage {
  /** Newest first. */
  records: MemoryRecord[];
  /** Absent on the last page. */
  nextCursor?: string;
}

export interface VectorCoverage {
  /** Records in scope. */
  records: number;
  /** Of those, how many have a vector for the model. */
  withVector: number;
}
