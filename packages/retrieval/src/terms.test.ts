import { describe, expect, it } from 'vitest';
import { analysePrompt, splitParts, stem } from './terms.js';

describe('prompt terms', () => {
  it('splits identifiers into their words', () => {
    expect(splitParts('createUser')).toEqual(['create', 'user']);
    expect(splitParts('rate_limit')).toEqual(['rate', 'limit']);
    expect(splitParts('parseHTTPRequest')).toEqual(['parse', 'http', 'request']);
    expect(splitParts('src/auth/session.ts')).toEqual(['src', 'auth', 'session', 'ts']);
  });

  it("maps a word's everyday variants to one stem", () => {
    const variants = ['cache', 'caches', 'cached', 'caching'].map(stem);
    expect(new Set(variants).size).toBe(1);
    expect(stem('retries')).toBe(stem('retry'));
    expect(stem('limits')).toBe(stem('limit'));
  });

  it('finds paths and identifiers in a chatty prompt', () => {
    const terms = analysePrompt(
      'ok so `src/cache/cached.ts` breaks when createUser runs, see rate_limit. Thanks!',
    );
    expect(terms.paths).toEqual(['src/cache/cached.ts']);
    expect(terms.identifiers).toEqual(['createuser', 'rate_limit']);
    expect(terms.stems.has(stem('user'))).toBe(true);
  });

  it('ignores URLs and sentence punctuation', () => {
    const terms = analysePrompt('see https://example.com/docs. Then fix it.');
    expect(terms.paths).toEqual([]);
  });

  it('reads a pasted blob (one 16k-character token) like any other token', () => {
    // A paste is one token the size of the query: the patterns run on it in one pass.
    expect(analysePrompt('0123456789'.repeat(1600)).paths).toEqual([]);
    expect(analysePrompt(`${'x'.repeat(16_000)}.ts`).paths).toEqual([`${'x'.repeat(16_000)}.ts`]);
    expect(analysePrompt(`${'.'.repeat(16_000)}x`).stems.size).toBe(1);
    expect(splitParts(`${'A'.repeat(16_000)}Bc`)).toEqual([`${'a'.repeat(16_000)}`, 'bc']);
    expect(analysePrompt('see notes.md.').paths).toEqual(['notes.md']);
    expect(analysePrompt('x.ts and ab.ts:').paths).toEqual(['ab.ts']);
  });
});
