// docs/how-it-works.md opens with a map: every workspace package, and the path of one hook
// event and one memory record as `package | functions` table rows. This keeps the map
// true: each package it names exists (and each workspace package is on it), and each
// function a row names is defined in that package's sources. A rename or a move that
// leaves the map behind fails here, not in a reader's head.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsDir, repoRoot } from './docs.js';

const page = readFileSync(join(docsDir, 'how-it-works.md'), 'utf8');
const map = page.slice(page.indexOf('## Map'), page.indexOf('\n## ', page.indexOf('## Map') + 1));

/** Workspace package name → its directory (packages/*, apps/*). */
const workspace = new Map(
  ['packages', 'apps'].flatMap((parent) =>
    readdirSync(join(repoRoot, parent)).map((name) => {
      const dir = join(repoRoot, parent, name);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
      return [pkg.name, dir] as const;
    }),
  ),
);

/** The text of a package's sources (src/, tests left out). */
function sources(dir: string): string {
  const root = join(dir, 'src');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => readFileSync(join(root, f), 'utf8'))
    .join('\n');
}

/** A declaration of `name`: function, const, class, type, or a method or property. */
function defines(text: string, name: string): boolean {
  const declared = new RegExp(
    `\\b(function\\*?|const|let|class|interface|type)\\s+${name}\\b|^\\s*(async\\s+)?${name}\\s*[(<:]`,
    'm',
  );
  return declared.test(text);
}

/** The table rows of the map: the package and the function names of each. */
const rows = [...map.matchAll(/^\| `([^`]+)`\s*\|(.*)\|\s*$/gm)].map(([, pkg, cell]) => ({
  pkg: pkg!,
  names: [...cell!.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map(([, name]) => name!),
}));

describe('docs/how-it-works.md map', () => {
  it('names every workspace package in its tree, and only those', () => {
    const tree = map.slice(map.indexOf('```text'), map.indexOf('```', map.indexOf('```text') + 3));
    const named = [...tree.matchAll(/^[├└─\s]*(@kiro-learn\/[a-z-]+|kiro-learn)\s/gm)].map(
      ([, name]) => name,
    );
    expect(named.sort()).toEqual([...workspace.keys()].sort());
  });

  it('follows a hook event and a memory record through functions that exist', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
    const missing: string[] = [];
    const texts = new Map<string, string>();
    for (const { pkg, names } of rows) {
      const dir = workspace.get(pkg);
      if (!dir) {
        missing.push(`${pkg}: no such package`);
        continue;
      }
      if (!texts.has(pkg)) texts.set(pkg, sources(dir));
      expect(names.length, `${pkg} row names no function`).toBeGreaterThan(0);
      for (const name of names) {
        if (!defines(texts.get(pkg)!, name)) missing.push(`${pkg}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
