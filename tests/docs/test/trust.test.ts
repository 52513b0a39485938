// docs/trust.md names, for each promise, the tests that hold kiro-learn to it, as
// `path` › "title". This keeps the page true: each file it names exists and holds a test
// of that title, so a renamed or deleted test cannot leave a promise unchecked unnoticed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsDir, repoRoot } from './docs.js';

const page = readFileSync(join(docsDir, 'trust.md'), 'utf8');
const cited = [...page.matchAll(/`([^`\s]+\.(?:test\.ts|ts))` › "([^"]+)"/g)].map((m) => ({
  file: m[1]!,
  title: m[2]!,
}));

describe('docs/trust.md', () => {
  it('names a test for every promise row', () => {
    const rows = page
      .split('\n')
      .filter((line) => /^\| [^-\s]/.test(line) && !/^\| promise/.test(line));
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) expect(row, row.slice(0, 80)).toMatch(/` › "/);
  });

  it('every test it names exists under that title', () => {
    const missing = cited.filter(({ file, title }) => {
      const path = join(repoRoot, file);
      return !existsSync(path) || !readFileSync(path, 'utf8').includes(title);
    });
    expect(missing).toEqual([]);
  });
});
