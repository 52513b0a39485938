import { describe, expect, it } from 'vitest';
import { HOOK_WORST_CASE_SECONDS } from './launcher.js';
import { HOOK_TIMEOUT_SECONDS } from './timeouts.js';

describe('the hook launcher’s deadlines', () => {
  const declared = Object.entries(HOOK_TIMEOUT_SECONDS).filter(
    (entry): entry is [string, number] => entry[1] !== undefined,
  );

  it.each(declared)('fit under the timeout %s hooks declare (%i s)', (_agent, seconds) => {
    // Fast path to its deadlines, then the Node shim with the same bytes: still inside.
    expect(HOOK_WORST_CASE_SECONDS).toBeLessThan(seconds);
  });
});
