import { LIMITS, TRUNCATION_MARKER } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { buildSessionSummary, type SessionSummaryInput } from './summary.js';

const input: SessionSummaryInput = {
  request: 'Fix the flaky login test',
  investigated: 'The retry loop in auth.ts',
  learned: 'The token cache expires after 30 s',
  completed: 'Raised the cache TTL; test passes 50/50',
  next_steps: 'Remove the retry loop',
  files_read: ['src/auth.ts', 'test/login.test.ts'],
  files_modified: ['src/auth.ts', 'src/cache.ts'],
};

describe('buildSessionSummary', () => {
  it('lays the summary out as four markdown sections, in order', () => {
    expect(buildSessionSummary(input)).toEqual({
      title: 'Fix the flaky login test',
      summary:
        '## What was investigated\n\nThe retry loop in auth.ts\n\n' +
        '## What was learned\n\nThe token cache expires after 30 s\n\n' +
        '## What was completed\n\nRaised the cache TTL; test passes 50/50\n\n' +
        '## Next steps\n\nRemove the retry loop',
      files_touched: ['src/auth.ts', 'test/login.test.ts', 'src/cache.ts'],
    });
  });

  it('drops whole sections from the bottom until the summary fits 4000 characters', () => {
    const long = { ...input, investigated: 'i'.repeat(1500), learned: 'l'.repeat(1500) };
    // investigated + learned with headings: 24+2+1500 + 2 + 19+2+1500 = 3049; adding
    // "completed" (2+21+2+1500) would pass 4000, so it and everything below it go.
    const { summary } = buildSessionSummary({ ...long, completed: 'c'.repeat(1500) });
    expect(summary).toBe(
      `## What was investigated\n\n${'i'.repeat(1500)}\n\n## What was learned\n\n${'l'.repeat(1500)}`,
    );
  });

  it('keeps a section that fits exactly at the limit', () => {
    // Headings and separators of all four sections take 24+19+21+13 + 4*2 + 3*2 = 91 characters.
    const filler = 'x'.repeat(LIMITS.summaryLength - 91 - 3);
    const { summary } = buildSessionSummary({
      ...input,
      investigated: filler,
      learned: 'a',
      completed: 'b',
      next_steps: 'c',
    });
    expect(summary.length).toBe(LIMITS.summaryLength);
    expect(summary.endsWith('## Next steps\n\nc')).toBe(true);
  });

  it('cuts a first section too long on its own, ending with the truncation marker', () => {
    const { summary } = buildSessionSummary({
      ...input,
      investigated: 'y'.repeat(LIMITS.summaryLength),
    });
    const kept =
      LIMITS.summaryLength - TRUNCATION_MARKER.length - '## What was investigated\n\n'.length;
    expect(summary).toBe(`## What was investigated\n\n${'y'.repeat(kept)}${TRUNCATION_MARKER}`);
    expect(summary.length).toBe(LIMITS.summaryLength);
  });

  it('makes the title from the request: one line, cut to 200 characters with an ellipsis', () => {
    const { title } = buildSessionSummary({
      ...input,
      request: `Refactor\n\n  the ${'z'.repeat(300)}`,
    });
    expect(title).toBe(`Refactor the ${'z'.repeat(200 - 'Refactor the '.length - 1)}…`);
    expect(title.length).toBe(200);
  });

  it('never splits a character made of two UTF-16 units when cutting', () => {
    const { title } = buildSessionSummary({ ...input, request: `${'a'.repeat(198)}😀😀😀` });
    expect(title).toBe(`${'a'.repeat(198)}…`);
  });
});
