import { memoised } from './memo.js';
import { stem } from './terms.js';

/**
 * The word pairs of a text (lower-cased, stemmed), the unit repeats are measured in. Pairs
 * rather than single words: two records about one subject share most of their words, but
 * only one that restates the other shares most of its pairs. A one-word text is its word.
 */
export const wordPairs: (text: string) => ReadonlySet<string> = memoised(
  pairsOf,
  // Pairs of the texts seen lately: every prompt formats its candidates again (titles,
  // summaries, facts and their lines), and a project's records come back prompt after prompt.
  5_000,
  4_096,
);

function pairsOf(text: string): ReadonlySet<string> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map(stem);
  if (words.length === 1) return new Set(words);
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) pairs.add(`${words[i - 1]} ${words[i]}`);
  return pairs;
}

/** The share of `pairs` already in `seen`: 1 for a text that says nothing new, 0 for one without words. */
export function overlap(pairs: ReadonlySet<string>, seen: ReadonlySet<string>): number {
  if (pairs.size === 0) return 0;
  let known = 0;
  for (const pair of pairs) if (seen.has(pair)) known++;
  return known / pairs.size;
}
