import { isUlid } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { hookUlid } from './ulid.js';

describe('hookUlid', () => {
  it('makes valid, unique ULIDs that sort by time', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => hookUlid(1_700_000_000_000 + i));
    expect(ids.every((id) => isUlid(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
    expect(hookUlid(0).slice(0, 10)).toBe('0000000000');
  });
});
