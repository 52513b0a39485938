import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTemp } from '../../test/helpers.js';

// Behaviour shared with every backend lives in test/conformance (run by
// test/sqlite.conformance.test.ts); what is left here is SQLite's own.
describe('SQLite files', () => {
  it('creates the data directory with mode 0700 and the file with 0600', async () => {
    const storage = await openTemp();
    expect(statSync(dirname(storage.path)).mode & 0o777).toBe(0o700);
    expect(statSync(storage.path).mode & 0o777).toBe(0o600);
  });
});
