import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('reads exactly like toISOString', () => {
    for (const ms of [0, 1, 951_782_400_000, 1_732_243_199_999, Date.now(), 253_402_300_799_999]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
