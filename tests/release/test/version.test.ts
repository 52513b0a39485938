import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './pack.js';
import { scratchDir } from './scratch.js';

// Release rehearsal, step 1: `changeset version` on a scratch copy of the workspace (its
// manifests and changesets), as the release does on the real one. Every changeset is
// consumed, each package it names gets the bump it asks for and a CHANGELOG entry.
const scratch = scratchDir('version');

const copy = (path: string) => {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  cpSync(join(repoRoot, path), join(scratch, path), { recursive: true });
};
const workspaceDirs = ['packages', 'apps', 'tests'].flatMap((parent) =>
  readdirSync(join(repoRoot, parent))
    .map((name) => `${parent}/${name}`)
    .filter((dir) => existsSync(join(repoRoot, dir, 'package.json'))),
);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/** What each changeset asks: package → bump, and its summary. */
function changesets(): Array<{ bumps: Map<string, string>; summary: string }> {
  const dir = join(repoRoot, '.changeset');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => {
      const [, front = '', body = ''] =
        /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(readFileSync(join(dir, f), 'utf8')) ?? [];
      const bumps = new Map(
        [...front.matchAll(/^["']([^"']+)["']: (major|minor|patch)$/gm)].map((m) => [m[1]!, m[2]!]),
      );
      return { bumps, summary: body.trim() };
    });
}

const RANK = { patch: 1, minor: 2, major: 3 } as Record<string, number>;
function bumped(version: string, bump: string): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

describe('changeset version on a scratch copy', () => {
  it('consumes every changeset, bumps what each names and writes the changelogs', () => {
    for (const path of [
      'package.json',
      'pnpm-workspace.yaml',
      '.changeset',
      'scripts/sync-plugin-version.mjs',
      '.claude-plugin/marketplace.json',
      'apps/collector/claude-plugin/.claude-plugin/plugin.json',
    ]) {
      copy(path);
    }
    for (const dir of workspaceDirs) {
      copy(`${dir}/package.json`);
      if (existsSync(join(repoRoot, dir, 'CHANGELOG.md'))) copy(`${dir}/CHANGELOG.md`);
    }
    const sets = changesets();
    expect(sets.length).toBeGreaterThan(0);
    const wanted = new Map<string, string>();
    for (const { bumps } of sets) {
      for (const [name, bump] of bumps) {
        if ((RANK[bump] ?? 0) > (RANK[wanted.get(name) ?? ''] ?? 0)) wanted.set(name, bump);
      }
    }
    const before = new Map(
      workspaceDirs.map((dir) => {
        const pkg = readJson(join(repoRoot, dir, 'package.json'));
        return [pkg.name as string, { dir, version: pkg.version as string }];
      }),
    );

    // The release flow as the root package.json has it: `changeset version`, then the
    // Claude Code plugin's version follows kiro-learn's.
    const flow = readJson(join(repoRoot, 'package.json')).scripts['version-packages'] as string;
    const run = spawnSync('sh', ['-c', flow], {
      cwd: scratch,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${join(repoRoot, 'node_modules/.bin')}:${process.env['PATH']}`,
      },
    });
    expect(run.stderr.replace(/.*warn.*\n?/gi, '')).toBe('');
    expect(run.status).toBe(0);

    expect(readdirSync(join(scratch, '.changeset')).filter((f) => f.endsWith('.md'))).toEqual([]);
    const app = readJson(join(scratch, 'apps/collector/package.json')).version;
    expect(
      readJson(join(scratch, 'apps/collector/claude-plugin/.claude-plugin/plugin.json')).version,
    ).toBe(app);
    expect(readJson(join(scratch, '.claude-plugin/marketplace.json')).plugins[0].version).toBe(app);
    for (const [name, bump] of wanted) {
      const { dir, version } = before.get(name)!;
      expect(readJson(join(scratch, dir, 'package.json')).version, name).toBe(
        bumped(version, bump),
      );
      const changelog = readFileSync(join(scratch, dir, 'CHANGELOG.md'), 'utf8');
      for (const { bumps, summary } of sets) {
        if (bumps.has(name)) expect(changelog, name).toContain(summary.split('\n')[0]);
      }
    }
  });
});
