import type { MemoryRecord, ObservationType } from '@kiro-learn/schema';

/**
 * Full-text search over memory records (SQLite: FTS5; PostgreSQL: tsvector), BM25-ranked
 * per column, with a LIKE scan when the index cannot answer.
 */
export interface SearchStore {
  /** Full-text search, best first. Never throws on any query text. */
  searchRecords(query: SearchOptions): Promise<SearchHit[]>;
  /**
   * Records waiting to enter the impact-ordered postings (indexed in the background after
   * an upgrade or a bulk write): until 0, searches rank every matching record, slower.
   * A count over the queue: callers that poll it (status, /metrics) keep it a few seconds.
   */
  impactBacklog?(): Promise<number>;
}

/** BM25 weights per indexed column; larger counts more. */
export interface ColumnWeights {
  /** The record's title. */
  title: number;
  /** Its summary. */
  summary: number;
  /** Its facts. */
  facts: number;
  /** Its concepts. */
  concepts: number;
  /** The files it touched. */
  files: number;
  /** The questions a record answers (`questions`): meant to count less than the others. */
  questions: number;
}

export interface SearchOptions {
  /** Exact namespace; omitted searches every namespace. */
  namespace?: string;
  /** Raw text: a prompt, a question, anything. */
  query: string;
  /** Most hits. */
  limit: number;
  /** Only records of this observation type. */
  observationType?: ObservationType;
  /** Only records whose files_touched contains this path (exact, or as a suffix after `/`). */
  file?: string;
  /** Only records nothing superseded (`superseded_by` unset). */
  current?: boolean;
  /** Column weights of this search, over the backend's defaults. */
  weights?: Partial<ColumnWeights>;
}

export interface SearchHit {
  /** The record found. */
  record: MemoryRecord;
  /** Higher is better (negated BM25; LIKE fallback hits score by matched terms). */
  score: number;
  /** The query terms (as typed) that went into the search. */
  terms: string[];
  /** How the hit was found. */
  via: 'fts' | 'like';
}
