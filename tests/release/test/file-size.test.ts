import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './pack.js';

// A module a reader can hold in their head (shared/DESIGN.md): no source file of a package,
// tests beside the code included, is longer than LIMIT lines unless one of its comments
// says why it is long (a migration history, one closure that cannot be cut, a table of
// samples). The reason is read by people; the test only checks that it is there: a comment
// that speaks of the file's length ("long", "longer", "length", "past 400 lines") and
// gives a reason ("because", "on purpose", "hence").
const LIMIT = 400;

const LENGTH = /\b(?:long|longer|length|(?:past|over) \d+ lines)\b/i;
const REASON = /\b(?:because|on purpose|hence)\b/i;

/** The comments of a file, each block of `//` lines or one `/* … *\/` as one text. */
function commentBlocks(text: string): string[] {
  const blocks: string[] = [];
  let run: string[] = [];
  const end = () => {
    if (run.length > 0) blocks.push(run.join(' '));
    run = [];
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('//')) {
      run.push(line.replace(/^\/\/+/, '').trim());
      continue;
    }
    end();
    if (line.startsWith('/*')) {
      const block: string[] = [];
      for (; i < lines.length; i++) {
        const inner = lines[i]!.trim();
        block.push(inner.replace(/^\/\*+|\*+\/$|^\*+/g, '').trim());
        if (inner.includes('*/')) break;
      }
      blocks.push(block.join(' '));
    }
  }
  end();
  return blocks;
}

/** Whether one of the file's comments says why it is long. */
function saysWhyLong(text: string): boolean {
  return commentBlocks(text).some((block) => LENGTH.test(block) && REASON.test(block));
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function packageSources(): string[] {
  const packages = join(repoRoot, 'packages');
  return readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const src = join(packages, entry.name, 'src');
      let files: string[];
      try {
        files = readdirSync(src, { recursive: true, encoding: 'utf8' });
      } catch {
        return [];
      }
      return files
        .filter((f) => /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/.test(f))
        .map((f) => join('packages', entry.name, 'src', f));
    });
}

describe('file size', () => {
  it(`no file in packages/*/src is over ${LIMIT} lines without a comment saying why`, () => {
    const unexplained = packageSources()
      .map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') }))
      .filter(({ text }) => lineCount(text) > LIMIT && !saysWhyLong(text))
      .map(({ file, text }) => `${file}: ${lineCount(text)} lines`);
    expect(unexplained).toEqual([]);
  });

  it('knows a reason from a mere mention of length', () => {
    expect(saysWhyLong('// Long because one closure holds the state.\nconst a = 1;\n')).toBe(true);
    expect(saysWhyLong('/**\n * This file is long on purpose: the history.\n */\n')).toBe(true);
    expect(saysWhyLong('// One table of samples; hence its length.\n')).toBe(true);
    expect(saysWhyLong('// The length of the list.\nconst long = "because";\n')).toBe(false);
    expect(saysWhyLong('const x = 1; // no comment about size\n')).toBe(false);
  });
});
