import type { MemoryRecord } from '@kiro-learn/schema';
import type { SearchHit } from '@kiro-learn/storage';
import { type PromptTerms, splitParts, stem } from './terms.js';

/** How much each signal adds on top of the BM25 score (normalised so the best hit is 1). */
export interface RankWeights {
  /**
   * Per record file the prompt names: by path or path suffix (full), by base name or by an
   * identifier equal to the file's name without extension, `createUser` → createUser.ts (half).
   */
  file: number;
  /** Per record concept whose words all appear in the prompt. */
  concept: number;
  /** Most a record's age can add, as a fraction of its score (a brand-new record). */
  recency: number;
  /** Days after which the recency bonus halves. */
  recencyHalfLifeDays: number;
  /**
   * Per file of the session's working set (the files its turns so far read or changed) a
   * record lists, two at most (prompts of a session only; see working-set.ts).
   */
  workingSet: number;
}

export const DEFAULT_RANK_WEIGHTS: Readonly<RankWeights> = Object.freeze({
  file: 0.6,
  concept: 0.25,
  recency: 0.1,
  recencyHalfLifeDays: 30,
  workingSet: 0.3,
});

/** A re-ranked hit. */
export interface RankedHit {
  record: MemoryRecord;
  /** The final score, higher is better. */
  score: number;
  /** Cosine similarity to the prompt, when semantic search found the record. */
  similarity?: number;
}

const DAY_MS = 86_400_000;
// Caps keep a record that lists every file of the project from outranking a precise one.
const MAX_FILE_MATCHES = 2;
const MAX_CONCEPT_MATCHES = 2;

function fileMatch(file: string, terms: PromptTerms): number {
  const f = file.toLowerCase();
  const base = f.slice(f.lastIndexOf('/') + 1);
  let best = 0;
  for (const p of terms.paths) {
    if (f === p || f.endsWith(`/${p}`) || p.endsWith(`/${f}`)) return 1;
    if (p.slice(p.lastIndexOf('/') + 1) === base) best = 0.5;
  }
  const dot = base.indexOf('.');
  if (dot > 0 && terms.identifiers.includes(base.slice(0, dot))) best = 0.5;
  return best;
}

/** The bonus a record earns for naming what the prompt names. */
export function boost(record: MemoryRecord, terms: PromptTerms, weights: RankWeights): number {
  let files = 0;
  if (terms.paths.length > 0 || terms.identifiers.length > 0) {
    for (const file of record.files_touched) files += fileMatch(file, terms);
  }
  let concepts = 0;
  for (const concept of record.concepts) {
    const parts = splitParts(concept);
    if (parts.length > 0 && parts.every((part) => terms.stems.has(stem(part)))) concepts += 1;
  }
  return (
    weights.file * Math.min(files, MAX_FILE_MATCHES) +
    weights.concept * Math.min(concepts, MAX_CONCEPT_MATCHES)
  );
}

function timeOf(record: MemoryRecord): number {
  const t = Date.parse(record.updated_at ?? record.created_at);
  return Number.isNaN(t) ? 0 : t;
}

/** 1 plus a bonus for a new record, halving every `recencyHalfLifeDays`. */
export function recencyFactor(record: MemoryRecord, weights: RankWeights, now: number): number {
  const ageDays = Math.max(0, now - timeOf(record)) / DAY_MS;
  return 1 + weights.recency * 0.5 ** (ageDays / weights.recencyHalfLifeDays);
}

/** Best score first; ties go to the newer record, then the smaller id (a stable order). */
export function tieBreak(a: RankedHit, b: RankedHit): number {
  return (
    b.score - a.score ||
    timeOf(b.record) - timeOf(a.record) ||
    (a.record.record_id < b.record.record_id ? -1 : a.record.record_id > b.record.record_id ? 1 : 0)
  );
}

/**
 * Re-ranks search hits: BM25 normalised to the best hit, plus file, identifier and concept
 * bonuses, times a mild recency factor. Ties go to the newer record, then the smaller id,
 * so equal inputs always give the same order.
 */
export function rankHits(
  hits: readonly SearchHit[],
  terms: PromptTerms,
  weights: RankWeights,
  now: number,
): RankedHit[] {
  const top = Math.max(0, ...hits.map((hit) => hit.score));
  const ranked = hits.map((hit) => {
    const base = top > 0 ? Math.max(0, hit.score) / top : 0;
    const score =
      (base + boost(hit.record, terms, weights)) * recencyFactor(hit.record, weights, now);
    return { record: hit.record, score };
  });
  return ranked.sort(tieBreak);
}
