/**
 * A seeded random corpus for the impact-table tests of both backends: a small vocabulary
 * picked Zipf-like, so some words are in most records, in records of every column. Each
 * test file has its own module instance, so each starts from the same seed.
 */
import { record } from './helpers.js';

export const OTHER = '/actor/alice/project/billing/';
export const RETRIEVAL_WEIGHTS = {
  title: 8,
  summary: 3,
  facts: 3,
  concepts: 5,
  files: 5,
  questions: 2,
};
export const VOCABULARY = Array.from(
  { length: 40 },
  (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`,
);

let seed = 11;
export function random(): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
}
/** A Zipf-like pick: low indexes far more often. */
export const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2.5)]!;
export const words = (n: number) => Array.from({ length: n }, word).join(' ');

export function randomRecord(namespace: string) {
  return record({
    namespace,
    title: words(2 + Math.floor(random() * 5)),
    summary: words(5 + Math.floor(random() * 30)),
    facts: [words(1 + Math.floor(random() * 6))],
    concepts: [word()],
    files_touched: [`src/${word()}.ts`],
    questions: random() < 0.3 ? [words(4)] : [],
  });
}
