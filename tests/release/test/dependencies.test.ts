import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './pack.js';

// Dependencies point one way (shared/DESIGN.md §2): each package imports only the ones
// below it, so each can be published and used alone, and no cycle can form. Checked on
// both what package.json declares and what the published sources import.
const MAY_IMPORT: Record<string, readonly string[]> = {
  'packages/schema': [],
  'packages/storage': ['schema'],
  'packages/buffer': ['schema', 'storage'],
  'packages/extractor': ['schema'],
  'packages/retrieval': ['schema', 'storage'],
  'packages/embeddings': ['schema'],
  'packages/shims': ['schema'],
  'packages/mcp-server': ['schema'],
  'packages/team': ['schema', 'storage', 'retrieval'],
  'apps/collector': [
    'schema',
    'storage',
    'buffer',
    'extractor',
    'retrieval',
    'embeddings',
    'shims',
    'mcp-server',
    'team',
  ],
};

const workspaceDirs = ['packages', 'apps'].flatMap((parent) =>
  readdirSync(join(repoRoot, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`),
);

/** The workspace package an import names (`@kiro-learn/storage/postgres` → storage). */
function workspaceName(specifier: string): string | undefined {
  if (specifier === 'kiro-learn' || specifier.startsWith('kiro-learn/')) return 'kiro-learn';
  return /^@kiro-learn\/([a-z-]+)/.exec(specifier)?.[1];
}

/** Every published source file of a package: src/, tests left out. */
function sources(dir: string): string[] {
  const root = join(repoRoot, dir, 'src');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(f) && !/\.test\.[cm]?[jt]s$/.test(f))
    .map((f) => join(root, f));
}

/** The relative imports of one source file, resolved to files (`./x.js` → `x.ts`). */
function relativeImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)]
    .map(([, specifier]) => specifier!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
}

/** Import cycles among a package's modules, each as `a.ts → b.ts → a.ts`. */
function cycles(dir: string): string[] {
  const root = join(repoRoot, dir, 'src');
  const files = sources(dir);
  const graph = new Map(files.map((file) => [file, relativeImports(file)]));
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') {
        found.push(
          [...path.slice(path.indexOf(next)), next].map((f) => relative(root, f)).join(' → '),
        );
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

describe('dependency direction', () => {
  it('every workspace package is in the table', () => {
    expect(workspaceDirs.sort()).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it.each(Object.entries(MAY_IMPORT))('%s declares only what it may import', (dir, allowed) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const declared = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })
      .map(workspaceName)
      .filter((name): name is string => name !== undefined);
    expect(declared.filter((name) => !allowed.includes(name))).toEqual([]);
  });

  it.each(Object.entries(MAY_IMPORT))('%s imports only what it may', (dir, allowed) => {
    const wrong: string[] = [];
    const packageRoot = resolve(repoRoot, dir);
    for (const file of sources(dir)) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const at = `${relative(repoRoot, file)}: ${specifier}`;
        if (specifier!.startsWith('.')) {
          // A relative import stays inside its own package.
          const target = resolve(dirname(file), specifier!);
          if (relative(packageRoot, target).startsWith('..')) wrong.push(at);
          continue;
        }
        const name = workspaceName(specifier!);
        if (name !== undefined && !allowed.includes(name)) wrong.push(at);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(Object.keys(MAY_IMPORT))('%s has no import cycle among its modules', (dir) => {
    expect(cycles(dir)).toEqual([]);
  });
});
