import { describe, expect, it } from 'vitest';
import { BUFFER_DEFAULTS, resolveOptions } from './options.js';

describe('buffer options', () => {
  it('defaults to DESIGN.md §4 and retries after the idle time', () => {
    const options = resolveOptions({ idleMs: 5000 });
    expect(options).toEqual({ ...BUFFER_DEFAULTS, idleMs: 5000, retryMs: 5000 });
    expect(Object.isFrozen(options)).toBe(true);
    expect(BUFFER_DEFAULTS.thresholdBytes).toBe(256 * 1024);
    expect(BUFFER_DEFAULTS.ceilingBytes).toBe(4 * 1024 * 1024);
  });

  it('says which value cannot work', () => {
    expect(() => resolveOptions({ idleMs: -1 })).toThrow(
      'idleMs must be a number of at least 0, not -1',
    );
    expect(() => resolveOptions({ breakerFailures: 0 })).toThrow(
      'breakerFailures must be at least 1',
    );
    expect(() => resolveOptions({ thresholdBytes: 10, ceilingBytes: 5 })).toThrow(
      /must not exceed/,
    );
  });
});
