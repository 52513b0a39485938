import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './pack.js';

// `changeset version` refuses the whole release if one changeset's frontmatter is broken
// (a Markdown formatter once turned a package line into a heading), so check each one.
const names = new Set(
  [
    'packages/schema',
    'packages/storage',
    'packages/buffer',
    'packages/extractor',
    'packages/retrieval',
    'packages/embeddings',
    'packages/shims',
    'packages/mcp-server',
    'packages/team',
    'apps/collector',
  ].map(
    (dir) =>
      (JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string })
        .name,
  ),
);

describe('changesets', () => {
  const dir = join(repoRoot, '.changeset');
  const files = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');

  it.each(files)('%s has frontmatter naming real packages and a summary', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = /^---\n((?:["'][^"'\n]+["']: (?:major|minor|patch)\n)+)---\n\n\S/.exec(text);
    expect(
      match,
      `${file} must start with ---, "package": bump lines, ---, a blank line, a summary`,
    ).not.toBeNull();
    for (const line of match![1]!.trim().split('\n')) {
      expect(names).toContain(/^["']([^"']+)["']/.exec(line)![1]);
    }
  });
});
