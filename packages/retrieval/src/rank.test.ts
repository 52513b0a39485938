import type { SearchHit } from '@kiro-learn/storage';
import { describe, expect, it } from 'vitest';
import { record } from '../test/helpers.js';
import { DEFAULT_RANK_WEIGHTS, rankHits } from './rank.js';
import { analysePrompt } from './terms.js';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const hit = (score: number, overrides: Parameters<typeof record>[0] = {}): SearchHit => ({
  record: record({ created_at: '2026-10-01T00:00:00Z', ...overrides }),
  score,
  terms: [],
  via: 'fts',
});
const titles = (prompt: string, hits: SearchHit[]) =>
  rankHits(hits, analysePrompt(prompt), DEFAULT_RANK_WEIGHTS, NOW).map((h) => h.record.title);

describe('rankHits', () => {
  it('lifts a record that touched the file the prompt names', () => {
    const hits = [
      hit(10, { title: 'Checkout notes' }),
      hit(9, { title: 'Pool fix', files_touched: ['src/checkout/placeOrder.ts'] }),
    ];
    expect(titles('what about placeOrder.ts?', hits)).toEqual(['Pool fix', 'Checkout notes']);
    expect(titles('anything about placeOrder?', hits)).toEqual(['Pool fix', 'Checkout notes']);
    expect(titles('anything about checkout?', hits)).toEqual(['Checkout notes', 'Pool fix']);
  });

  it('lifts a record whose concept the prompt names, in any word form', () => {
    const hits = [
      hit(10, { title: 'Other' }),
      hit(9, { title: 'Limiter', concepts: ['rate limiting'] }),
    ];
    expect(titles('requests got rate limited', hits)).toEqual(['Limiter', 'Other']);
  });

  it('prefers the newer of two equal matches, and breaks exact ties by id', () => {
    const older = hit(5, { title: 'Older', created_at: '2026-01-01T00:00:00Z' });
    const newer = hit(5, { title: 'Newer', created_at: '2026-10-30T00:00:00Z' });
    expect(titles('x', [older, newer])).toEqual(['Newer', 'Older']);
    const a = hit(5, { title: 'A', record_id: 'mr_01J00000000000000000000000' });
    const b = hit(5, { title: 'B', record_id: 'mr_01J00000000000000000000001' });
    expect(titles('x', [b, a])).toEqual(['A', 'B']);
    expect(titles('x', [a, b])).toEqual(['A', 'B']);
  });
});
