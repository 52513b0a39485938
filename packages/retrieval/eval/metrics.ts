/** The eval's figures for one prompt: recall@1, recall@5 and reciprocal rank. */
export interface Scores {
  r1: number;
  r5: number;
  mrr: number;
}

/**
 * recall@k counts distinct relevant records in the top k out of min(k, relevant); MRR uses
 * the first relevant.
 */
export function score(ranked: readonly string[], relevant: readonly string[]): Scores {
  const recall = (k: number) =>
    new Set(ranked.slice(0, k).filter((key) => relevant.includes(key))).size /
    Math.min(k, relevant.length);
  const first = ranked.findIndex((key) => relevant.includes(key));
  return { r1: recall(1), r5: recall(5), mrr: first < 0 ? 0 : 1 / (first + 1) };
}

export function mean(rows: readonly Scores[]): Scores {
  const sum = (f: (s: Scores) => number) => rows.reduce((a, s) => a + f(s), 0) / rows.length;
  return { r1: sum((s) => s.r1), r5: sum((s) => s.r5), mrr: sum((s) => s.mrr) };
}
