// The code a package README shows is code that runs: a ```ts block whose first line names
// an example (`// examples/<name>.ts…`) is that file of the package, verbatim, and every
// file so shown runs to exit 0 with the machine's Node against the built packages (the
// packages' tsconfigs type-check examples/). Each example checks its own outcome. A page of
// docs/ shows a package's example the same way (verbatim: the package is the one whose
// examples/<name>.ts the block is), and every ```ts block of a README or docs page is one,
// or starts `// not run by the docs tests: <reason>` (listed with its reason).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from './blocks.js';
import { pages, repoRoot } from './docs.js';

const EXAMPLE_LINE = /^\/\/ (examples\/[\w-]+\.ts)\b/;
const NOT_RUN = /^\/\/ not run by the docs tests: (.+)$/;
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

const packageDirs = ['packages', 'apps'].flatMap((dir) =>
  readdirSync(join(repoRoot, dir)).map((name) => `${dir}/${name}`),
);

/** A docs page's example blocks, each with the package whose example file it is. */
const shownInDocs: Shown[] = pages().flatMap((page) =>
  page.blocks
    .filter((block) => block.lang === 'ts' && EXAMPLE_LINE.test(block.body[0] ?? ''))
    .map((block) => {
      const file = EXAMPLE_LINE.exec(block.body[0]!)![1]!;
      const text = block.body.join('\n');
      const candidates = packageDirs.filter((pkg) => existsSync(join(repoRoot, pkg, file)));
      const same = candidates.find(
        (pkg) => readFileSync(join(repoRoot, pkg, file), 'utf8').trimEnd() === text,
      );
      return { pkg: same ?? candidates[0] ?? `docs/${page.name}`, file, text, line: block.line };
    }),
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

  it('every ```ts block of a package README or a docs page is an example', () => {
    const readmes = packageDirs
      .map((pkg) => `${pkg}/README.md`)
      .filter((path) => existsSync(join(repoRoot, path)));
    const texts = [
      ...readmes.map((path) => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') })),
      ...pages().map((page) => ({ path: `docs/${page.name}`, text: page.text })),
    ];
    const ts = texts.flatMap(({ path, text }) =>
      fencedBlocks(text)
        .filter((block) => block.lang === 'ts' && !EXAMPLE_LINE.test(block.body[0] ?? ''))
        .map((block) => ({ at: `${path}:${block.line}`, first: block.body[0] ?? '' })),
    );
    const notRun = ts.filter(({ first }) => NOT_RUN.test(first));
    console.log(
      `README and docs ts blocks not run, by rule:\n  ${notRun.map(({ at, first }) => `${at}: ${NOT_RUN.exec(first)![1]}`).join('\n  ')}`,
    );
    expect(ts.filter(({ first }) => !NOT_RUN.test(first)).map(({ at }) => at)).toEqual([]);
  });

  for (const { pkg, file, text, line } of shownInDocs) {
    it(`a docs page's block at line ${line} is ${pkg}/${file}, verbatim`, () => {
      expect(existsSync(join(repoRoot, pkg, file)), `${pkg}/${file}`).toBe(true);
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
