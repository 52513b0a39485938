import { quoteTerm } from './tokenize.js';

export const DEFAULT_MAX_POSTINGS = 20_000;

/** A term of a prompt with its index frequency. */
export interface TermStat {
  /** The word as typed (lower-cased). */
  word: string;
  /** Its index term (stemmed). */
  term: string;
  /** Records containing the term. */
  df: number;
}

export interface QueryPlanOptions {
  /** Records in the index. */
  totalDocs: number;
  /** At most this many terms (default 32). */
  maxTerms?: number;
  /** Terms in more than this share of records are dropped (default 0.2). */
  maxDocShare?: number;
  /**
   * When every word of the prompt is past `maxDocShare`, those in at most this share of
   * records are searched for after all (default 0.5): a prompt made only of a project's
   * common words ("webhook" in a payments project) still finds the records that have them,
   * while a word in most records still searches nothing.
   */
  fallbackDocShare?: number;
  /** Below this many records nothing is dropped as common (default 50). */
  minDocsForPruning?: number;
  /**
   * Stop adding terms once their summed document frequencies pass this (default 20,000).
   * Once pruning applies, a term past it on its own is dropped as too common.
   */
  maxPostings?: number;
}

export interface QueryPlan {
  /** Words kept, rarest first. */
  words: string[];
  /** FTS5 expression: the quoted words joined with OR; empty when nothing is left. */
  match: string;
}

/**
 * Chooses the words worth searching for: those that occur in the index at all, rarest
 * first (highest IDF), without those present in most records (they add nothing to BM25
 * and would make FTS5 rank most of the index), within a postings budget so a long prompt
 * cannot turn one search into a scan.
 */
export function planQuery(stats: readonly TermStat[], options: QueryPlanOptions): QueryPlan {
  const maxTerms = options.maxTerms ?? 32;
  const maxShare = options.maxDocShare ?? 0.2;
  const prune = options.totalDocs >= (options.minDocsForPruning ?? 50);
  const maxPostings = options.maxPostings ?? DEFAULT_MAX_POSTINGS;
  const present = stats
    .filter((s) => s.df > 0 && s.df <= (prune ? maxPostings : Number.POSITIVE_INFINITY))
    .sort((a, b) => a.df - b.df || a.word.localeCompare(b.word));
  const within = (share: number) => present.filter((s) => s.df / options.totalDocs <= share);
  let candidates = prune ? within(maxShare) : present;
  if (candidates.length === 0 && prune) candidates = within(options.fallbackDocShare ?? 0.5);
  const words: string[] = [];
  const terms = new Set<string>();
  let postings = 0;
  for (const s of candidates) {
    if (terms.has(s.term)) continue;
    if (words.length >= maxTerms || (words.length > 0 && postings + s.df > maxPostings)) break;
    words.push(s.word);
    terms.add(s.term);
    postings += s.df;
  }
  return { words, match: words.map(quoteTerm).join(' OR ') };
}
