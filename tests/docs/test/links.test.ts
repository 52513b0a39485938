import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsDir, pages, repoRoot } from './docs.js';

/** Relative link targets of a Markdown text (no URLs, no pure anchors). */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

describe('links', () => {
  it('root README links the docs index, and the index links every page', () => {
    expect(relativeLinks(readFileSync(join(repoRoot, 'README.md'), 'utf8'))).toContain(
      'docs/README.md',
    );
    const index = relativeLinks(readFileSync(join(docsDir, 'README.md'), 'utf8'));
    const missing = pages()
      .map((p) => p.name)
      .filter((name) => name !== 'README.md' && !index.includes(name));
    expect(missing).toEqual([]);
  });

  it('every relative link in docs/ points at a file that exists', () => {
    const broken = pages().flatMap((page) =>
      relativeLinks(page.text)
        .filter((target) => !existsSync(join(dirname(join(docsDir, page.name)), target)))
        .map((target) => `${page.name} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
