import { DEFAULTS } from '@kiro-learn/schema';
import type { ColumnWeights, StorageBackend } from '@kiro-learn/storage';
import { DEFAULT_MAX_OVERLAP } from './context.js';
import { RetrievalError } from './errors.js';
import { DEFAULT_HYBRID_WEIGHTS, type HybridWeights } from './hybrid.js';
import { DEFAULT_RANK_WEIGHTS, type RankWeights } from './rank.js';
import type { RemoteSource } from './remote.js';
import type { SemanticOptions } from './semantic.js';

/** Settings of a retriever; every field but `storage` has a default. */
export interface RetrieverOptions {
  /** Where records are searched and retrievals logged. */
  storage: StorageBackend;
  /** Latency budget in milliseconds; past it the result is empty (default 500). */
  budgetMs?: number;
  /** Most records in one context (default 10). */
  maxRecords?: number;
  /** Context budget in estimated tokens, header included (default 1500). */
  contextTokens?: number;
  /** Most tokens one record's summary may take before it is trimmed (default 400). */
  summaryTokens?: number;
  /**
   * Context budget at session start, in estimated tokens, header included (default 400):
   * a short overview, not the prompt budget filled with recent turns.
   */
  sessionStartTokens?: number;
  /** Most records at session start (default 5). */
  sessionStartRecords?: number;
  /** Search hits fetched for re-ranking; more finds more, costs more (default 40). */
  candidates?: number;
  /** BM25 column weights passed to storage, over storage's own (default DEFAULT_SEARCH_WEIGHTS). */
  columnWeights?: Partial<ColumnWeights>;
  /** Re-ranking bonuses (default DEFAULT_RANK_WEIGHTS). */
  rankWeights?: Partial<RankWeights>;
  /** Semantic search (an embedder and record vectors); omitted: lexical only. */
  semantic?: SemanticOptions;
  /** How lexical and semantic scores blend (default DEFAULT_HYBRID_WEIGHTS). */
  hybridWeights?: Partial<HybridWeights>;
  /**
   * A record, or a fact, whose word pairs are more than this share in the context already
   * is left out as a repeat (default DEFAULT_MAX_OVERLAP, 0.8; 1 keeps every record).
   */
  maxOverlap?: number;
  /** Records scoring below this share of the best record's score are left out as noise (default 0.3). */
  minRelativeScore?: number;
  /** Longest prompt read, in characters; the rest is ignored (default 16000). */
  maxQueryChars?: number;
  /** Sessions whose injected records are kept in memory (default 1000). */
  maxSessions?: number;
  /** Write each retrieval to storage's retrieval log (default true). */
  log?: boolean;
  /** Clock in epoch milliseconds, for recency (default Date.now). */
  now?: () => number;
  /** Told about every error a retrieval swallowed (default: ignore). */
  onError?: (error: unknown) => void;
  /** Records from outside local storage (team memory), searched in parallel; omitted: none. */
  remote?: RemoteSource;
}

/** Options with every default filled in, frozen. */
export type ResolvedRetrieverOptions = Readonly<
  Required<
    Omit<
      RetrieverOptions,
      'columnWeights' | 'rankWeights' | 'hybridWeights' | 'semantic' | 'remote'
    >
  > & {
    columnWeights: Readonly<Partial<ColumnWeights>>;
    rankWeights: Readonly<RankWeights>;
    hybridWeights: Readonly<HybridWeights>;
    semantic: SemanticOptions | undefined;
    remote: RemoteSource | undefined;
    /** The semantic share of the latency budget, in ms. */
    semanticBudgetMs: number;
  }
>;

/**
 * Column weights retrieval asks storage for, over storage's defaults: the summary counts a
 * little more, because a question asked in other words than a title meets the record's
 * explanation there (recall@5 0.962 → 0.972 on the eval set, MRR unchanged or better); the
 * questions a record answers count below every field of its own (2, against 3 to 8), and
 * above storage's 1: on the turns set, where a reply's subject is often only in the
 * request before it, recall@1 0.581 → 0.619 with every other set unchanged.
 */
export const DEFAULT_SEARCH_WEIGHTS: Readonly<Partial<ColumnWeights>> = Object.freeze({
  summary: 3,
  questions: 2,
});

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new RetrievalError('invalid_options', `${name} must be a positive number, got ${value}`);
  }
  return value;
}

/** Fills in defaults; throws RetrievalError for values that cannot work. */
export function resolveOptions(options: RetrieverOptions): ResolvedRetrieverOptions {
  if (typeof options?.storage?.searchRecords !== 'function') {
    throw new RetrievalError('invalid_options', 'storage must be a StorageBackend');
  }
  const budgetMs = positive('budgetMs', options.budgetMs, DEFAULTS.retrievalBudgetMs);
  const semantic = options.semantic;
  if (
    semantic !== undefined &&
    typeof semantic?.embedder !== 'function' &&
    typeof semantic?.embedder?.embed !== 'function'
  ) {
    throw new RetrievalError(
      'invalid_options',
      'semantic.embedder must be an embedder or a function returning one',
    );
  }
  return Object.freeze({
    storage: options.storage,
    budgetMs,
    semantic,
    // The remote source never gets more than the whole budget.
    remote: options.remote && {
      ...options.remote,
      budgetMs: Math.min(budgetMs, positive('remote.budgetMs', options.remote.budgetMs, budgetMs)),
    },
    semanticBudgetMs: Math.min(
      budgetMs,
      positive('semantic.budgetMs', semantic?.budgetMs, budgetMs / 2),
    ),
    hybridWeights: Object.freeze({ ...DEFAULT_HYBRID_WEIGHTS, ...options.hybridWeights }),
    maxRecords: Math.floor(positive('maxRecords', options.maxRecords, DEFAULTS.retrievalRecords)),
    contextTokens: positive('contextTokens', options.contextTokens, 1500),
    summaryTokens: positive('summaryTokens', options.summaryTokens, 400),
    sessionStartTokens: positive('sessionStartTokens', options.sessionStartTokens, 400),
    sessionStartRecords: Math.floor(
      positive('sessionStartRecords', options.sessionStartRecords, 5),
    ),
    candidates: Math.floor(positive('candidates', options.candidates, 40)),
    columnWeights: Object.freeze({ ...DEFAULT_SEARCH_WEIGHTS, ...options.columnWeights }),
    rankWeights: Object.freeze({ ...DEFAULT_RANK_WEIGHTS, ...options.rankWeights }),
    minRelativeScore: options.minRelativeScore ?? 0.3,
    maxOverlap: positive('maxOverlap', options.maxOverlap, DEFAULT_MAX_OVERLAP),
    maxQueryChars: Math.floor(positive('maxQueryChars', options.maxQueryChars, 16_000)),
    maxSessions: Math.floor(positive('maxSessions', options.maxSessions, 1000)),
    log: options.log ?? true,
    now: options.now ?? Date.now,
    onError: options.onError ?? (() => {}),
  });
}
