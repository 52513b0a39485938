// The code a package README shows is code that runs: a ```ts block whose first line names
// an example (`// examples/<name>.ts…`) is that file of the package, verbatim, and every
// file so shown runs to exit 0 with the machine's Node against the built packages (the
// packages' tsconfigs type-check examples/). Each example checks its own outcome.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from './blocks.js';
import { repoRoot } from './docs.js';

const EXAMPLE_LINE = /^\/\/ (examples\/[\w-]+\.ts)\b/;
// Hang guard, not a speed limit: an example may load the embedding model on a busy machine.
const RUN_TIMEOUT_MS = 120_000;

interface Shown {
  /** The package's directory, relative to the repository. */
  pkg: string;
  /** The example's path inside the package. */
  file: string;
  /** The block's text. */
  text: string;
  line: number;
}

const shown: Shown[] = ['packages', 'apps'].flatMap((dir) =>
  readdirSync(join(repoRoot, dir))
    .map((name) => `${dir}/${name}`)
    .filter((pkg) => existsSync(join(repoRoot, pkg, 'README.md')))
    .flatMap((pkg) =>
      fencedBlocks(readFileSync(join(repoRoot, pkg, 'README.md'), 'utf8'))
        .filter((block) => block.lang === 'ts' && EXAMPLE_LINE.test(block.body[0] ?? ''))
        .map((block) => ({
          pkg,
          file: EXAMPLE_LINE.exec(block.body[0]!)![1]!,
          text: block.body.join('\n'),
          line: block.line,
        })),
    ),
);

function run(cwd: string, file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd, encoding: 'utf8', timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          output: stdout + stderr,
        }),
    );
  });
}

describe('the examples package READMEs show', () => {
  it('include writing and searching records, finding them by meaning, and a collector in-process', () => {
    expect(shown.map(({ pkg, file }) => `${pkg}/${file}`)).toEqual(
      expect.arrayContaining([
        'packages/storage/examples/open-and-search.ts',
        'packages/retrieval/examples/semantic.ts',
        'apps/collector/examples/embed.ts',
      ]),
    );
  });

  for (const { pkg, file, text, line } of shown) {
    it(`${pkg}/README.md:${line} is ${file}, verbatim`, () => {
      expect(text).toBe(readFileSync(join(repoRoot, pkg, file), 'utf8').trimEnd());
    });
  }

  it.concurrent.each(shown.map(({ pkg, file }) => [`${pkg}/${file}`, pkg, file]))(
    '%s runs to exit 0',
    async (_name, pkg, file) => {
      const { code, output } = await run(join(repoRoot, pkg), file);
      expect(code, output).toBe(0);
    },
  );
});
