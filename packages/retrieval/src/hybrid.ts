import type { MemoryRecord } from '@kiro-learn/schema';
import { type SearchHit, STOP_WORDS, tokenize } from '@kiro-learn/storage';
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
  /**
   * How many of the best lexical hits that hold the prompt's rarest searched word keep a
   * place in the first five whatever the semantic side says (0: none). A record that has
   * the one word that sets the question apart is what the lexical side is sure of.
   */
  rareTermSlots: number;
  /**
   * Records with fewer content words than this get their semantic evidence scaled down in
   * proportion (0: off): a short record is close in meaning to many prompts by accident.
   */
  shortRecordWords: number;
}

/**
 * Tuned on the whole evaluation (every labelled set at once, `node eval/tune.ts`): the
 * shares are the best paraphrase recall among settings that keep every other tag's
 * recall@5 within 0.033 of lexical; keeping three rare-word lexical hits only ever put a
 * missed answer back (original set recall@5 0.975 → 0.979, nothing lost elsewhere), and
 * scaling short records' semantic evidence below 14 words lifted the turns set (recall@5
 * 0.943 → 0.952) for one prompt lost against five gained.
 */
export const DEFAULT_HYBRID_WEIGHTS: Readonly<HybridWeights> = Object.freeze({
  semanticMin: 0.3,
  semanticMax: 1,
  minSimilarity: 0.15,
  fullSimilarity: 0.5,
  rareTermSlots: 3,
  shortRecordWords: 14,
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

/** The stemmed words of a record's text (identifier parts split). */
function recordWords(record: MemoryRecord): Set<string> {
  return new Set(
    wordsOf(
      [
        record.title,
        record.summary,
        ...record.facts,
        ...record.concepts,
        ...record.files_touched,
        ...(record.questions ?? []),
      ].join(' '),
    ),
  );
}

/**
 * Share of the prompt's content words (stop words left out, stemmed) that a record
 * contains: how well the best lexical hit answers the prompt in its own words.
 */
export function coverage(prompt: string, record: MemoryRecord | undefined): number {
  const wanted = new Set(tokenize(prompt).flatMap((word) => wordsOf(word)));
  if (wanted.size === 0 || !record) return 0;
  const have = recordWords(record);
  let covered = 0;
  for (const word of wanted) if (have.has(word)) covered++;
  return covered / wanted.size;
}

/** Content words of a set of stems (stop words out). */
function contentSize(words: ReadonlySet<string>): number {
  let n = 0;
  for (const word of words) if (word.length > 1 && !STOP_WORDS.has(word)) n++;
  return n;
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
    let sem = Math.min(1, Math.max(0, (hit.similarity - hybrid.minSimilarity) / span));
    if (hybrid.shortRecordWords > 0) {
      const words = contentSize(recordWords(hit.record));
      sem *= Math.min(1, words / hybrid.shortRecordWords);
    }
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
  const ranked: RankedHit[] = [...candidates.values()].map(({ record, lex, sem, similarity }) => ({
    record,
    score:
      ((1 - share) * lex + share * sem + boost(record, terms, weights)) *
      recencyFactor(record, weights, now),
    ...(similarity === undefined ? {} : { similarity }),
  }));
  ranked.sort(tieBreak);
  return hybrid.rareTermSlots > 0 ? keepRareHits(ranked, lexical, hybrid.rareTermSlots) : ranked;
}

/** The first five places, which the context and recall@5 read. */
const TOP = 5;
/** How many of the rarest searched words a lexical hit must hold to be kept. */
const RARE_TERMS = 2;

/**
 * Moves the best lexical hits that hold the prompt's two rarest searched words (storage
 * lists the words it searched for rarest first) back into the first five when the blend
 * pushed them out, each into the lowest place there that no other such hit holds.
 */
function keepRareHits(
  ranked: RankedHit[],
  lexical: readonly SearchHit[],
  slots: number,
): RankedHit[] {
  const searched = lexical.find((hit) => hit.terms.length > 0)?.terms ?? [];
  if (searched.length === 0) return ranked;
  // The rarest two (one when only one was searched): a single rare word can be chance.
  const keys = searched.slice(0, RARE_TERMS).map((term) => stem(term.toLowerCase()));
  const sure = [...lexical]
    .sort((a, b) => b.score - a.score)
    .filter((hit) => {
      const words = recordWords(hit.record);
      return keys.every((key) => words.has(key));
    })
    .slice(0, slots)
    .map((hit) => hit.record.record_id);
  const kept = new Set(sure);
  let out = ranked;
  for (const id of sure) {
    const at = out.findIndex((hit) => hit.record.record_id === id);
    if (at < TOP) continue;
    // Into the lowest of the first five places that no kept hit holds.
    let slot = TOP - 1;
    while (slot >= 0 && kept.has(out[slot]!.record.record_id)) slot--;
    if (slot < 0) break;
    // Scored just above the hit it displaces, so the order and the scores agree.
    const hit = { ...out[at]!, score: out[slot]!.score * (1 + 1e-9) + 1e-12 };
    out = [...out.slice(0, slot), hit, ...out.slice(slot, at), ...out.slice(at + 1)];
  }
  return out;
}
