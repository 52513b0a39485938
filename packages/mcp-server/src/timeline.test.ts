import { describe, expect, it } from 'vitest';
import { around, type TimelineEntry } from './timeline.js';

const entry = (at: number): TimelineEntry => ({ at, id: `t${at}`, kind: 'record', line: `t${at}` });
/** Entries at 1..n, newest first, in pages of `size`. */
const pages = (n: number, size: number) => {
  const all = Array.from({ length: n }, (_, i) => entry(n - i));
  return Array.from({ length: Math.ceil(n / size) }, (_, p) => all.slice(p * size, (p + 1) * size));
};

describe('around', () => {
  it('keeps the nearest entries on each side of the anchor, oldest first', async () => {
    const lines = (await around(pages(20, 3), 10, 3, 2)).map((e) => e.line);
    expect(lines).toEqual(['t8', 't9', 't10', 't11', 't12']);
  });

  it('stops reading pages once it has enough older entries', async () => {
    let read = 0;
    async function* counted() {
      for (const page of pages(100, 10)) {
        read++;
        yield page;
      }
    }
    await around(counted(), 95, 3, 0);
    expect(read).toBe(1);
  });

  it('returns what exists when history is shorter than asked', async () => {
    const lines = (await around(pages(2, 5), Number.POSITIVE_INFINITY, 10, 10)).map((e) => e.line);
    expect(lines).toEqual(['t1', 't2']);
  });
});
