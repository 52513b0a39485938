import { describe, expect, it } from 'vitest';
import { VectorIndex } from './vector-index.js';

function randomUnit(dim: number, seed: { s: number }): Float32Array {
  const v = new Float32Array(dim);
  let norm = 0;
  for (let d = 0; d < dim; d++) {
    seed.s = (seed.s * 1103515245 + 12345) % 2 ** 31;
    v[d] = seed.s / 2 ** 31 - 0.5;
    norm += v[d]! * v[d]!;
  }
  for (let d = 0; d < dim; d++) v[d]! /= Math.sqrt(norm);
  return v;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('VectorIndex', () => {
  it('finds the same nearest vectors as an exact float scan, scores within 0.01', () => {
    const seed = { s: 7 };
    for (const dim of [384, 100]) {
      const index = new VectorIndex(dim);
      const vectors = Array.from({ length: 3000 }, () => randomUnit(dim, seed));
      vectors.forEach((v, i) => {
        index.add(`r${i}`, v);
      });
      expect(index.size).toBe(3000);
      for (const q of [vectors[17]!, randomUnit(dim, seed)]) {
        const exact = vectors
          .map((v, i) => ({ id: `r${i}`, score: dot(q, v) }))
          .sort((a, b) => b.score - a.score);
        const hits = index.search(q, 10);
        expect(hits).toHaveLength(10);
        expect(hits[0]!.recordId).toBe(exact[0]!.id);
        for (const [i, hit] of hits.entries()) {
          expect(Math.abs(hit.score - exact[i]!.score)).toBeLessThan(0.01);
        }
      }
    }
  });

  it('compares a vector of any length by its direction', () => {
    const index = new VectorIndex(3);
    index.add('a', Float32Array.from([2, 0, 0]));
    index.add('b', Float32Array.from([0, 5, 0]));
    const [hit] = index.search(Float32Array.from([0.5, 0, 0]), 1);
    expect(hit).toEqual({ recordId: 'a', score: expect.closeTo(1, 2) });
  });

  it('returns nothing for an empty index, a zero query or a wrong dimension', () => {
    const index = new VectorIndex(4);
    expect(index.search(Float32Array.from([1, 0, 0, 0]), 5)).toEqual([]);
    index.add('a', Float32Array.from([1, 0, 0, 0]));
    expect(index.search(new Float32Array(4), 5)).toEqual([]);
    expect(index.search(Float32Array.from([1, 0]), 5)).toEqual([]);
  });
});
