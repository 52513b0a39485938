/**
 * A seeded random corpus for the impact-table tests of both backends: a small vocabulary
 * picked Zipf-like, so some words are in most records, in records of every column. Each
 * test file has its own module instance, so each starts from the same seed.
 */

import type { MemoryRecord } from '@kiro-learn/schema';
import { expect } from 'vitest';
import type { SearchHit, SearchOptions } from '../src/stores/search.js';
import { NS, record } from './helpers.js';

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

/**
 * Writes `records` eight at a time, in order. Hundreds at once wait for one of the pool's
 * connections, and on a loaded machine past its acquire timeout (`unavailable`).
 */
export async function putRecords(
  storage: { putRecord(record: MemoryRecord): Promise<unknown> },
  records: readonly MemoryRecord[],
): Promise<void> {
  for (let i = 0; i < records.length; i += 8) {
    await Promise.all(records.slice(i, i + 8).map((r) => storage.putRecord(r)));
  }
}

/** A backend's search, as the impact tests compare two ways of answering it. */
interface Searcher {
  searchRecords(query: SearchOptions): Promise<SearchHit[]>;
}

const scores = (hits: readonly SearchHit[]) => hits.map((hit) => hit.score);

/** One search, both ways: the same scores in order, the same records above the last score. */
export async function expectSameAnswer(
  fast: Searcher,
  slow: Searcher,
  query: string,
  limit: number,
  weights?: SearchOptions['weights'],
): Promise<void> {
  const options = { namespace: NS, query, limit, ...(weights ? { weights } : {}) };
  const a = await fast.searchRecords(options);
  const b = await slow.searchRecords(options);
  expect(a.length).toBe(b.length);
  for (const [i, s] of scores(a).entries()) expect(s).toBeCloseTo(scores(b)[i]!, 9);
  // Records of equal score may come in another order (ties), never other records.
  const bar = Math.min(...scores(b));
  const above = (hits: readonly SearchHit[]) =>
    hits
      .filter((h) => h.score > bar + 1e-9)
      .map((h) => h.record.record_id)
      .sort();
  expect(above(a)).toEqual(above(b));
}

/** Both ways give the same answers to `queries` random searches, at three weights and limits. */
export async function expectSameRanking(
  fast: Searcher,
  slow: Searcher,
  queries: number,
  odd: SearchOptions['weights'],
): Promise<void> {
  for (let q = 0; q < queries; q++) {
    const query = words(1 + Math.floor(random() * 6));
    for (const [weights, limit] of [
      [undefined, 10],
      [RETRIEVAL_WEIGHTS, 40],
      [odd, 5],
    ] as const) {
      await expectSameAnswer(fast, slow, query, limit, weights);
    }
  }
}
