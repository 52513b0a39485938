// pnpmw's first run on a machine without Node 22: one line per phase with its time, and
// what npm says only when it fails. A stand-in `npm` (on a PATH with no Node at all)
// "installs" Node 22 and pnpm by linking the ones running this test, so nothing is
// downloaded; the wrapper itself runs as written.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './pack.js';
import { scratchDir } from './scratch.js';

const root = scratchDir('pnpmw');

/** The tools pnpmw needs, and nothing else: no node, no pnpm. */
const TOOLS = ['sh', 'sed', 'cat', 'cksum', 'date', 'dirname', 'mkdir', 'ln', 'rm'];
const pnpm = spawnSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).stdout.trim();

function machine(name: string, npm: string): { dir: string; env: Record<string, string> } {
  const dir = join(root, name);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const tool of TOOLS) {
    const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(path, join(bin, tool));
  }
  writeFileSync(join(bin, 'npm'), npm, { mode: 0o755 });
  chmodSync(join(bin, 'npm'), 0o755);
  const project = join(dir, 'project');
  mkdirSync(project);
  copyFileSync(join(repoRoot, 'pnpmw'), join(project, 'pnpmw'));
  const { packageManager } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'empty', private: true, packageManager }),
  );
  writeFileSync(
    join(project, 'pnpm-lock.yaml'),
    "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n",
  );
  return {
    dir: project,
    env: {
      PATH: bin,
      HOME: dir,
      // pnpm's own store and cache: nothing to fetch for an empty project.
      npm_config_store_dir: join(dir, 'store'),
      XDG_CACHE_HOME: join(dir, 'cache'),
    },
  };
}

/** `npm install --prefix DIR …`: links this test's Node and pnpm where pnpmw expects them. */
const goodNpm = `#!/bin/sh
while [ "$1" != --prefix ]; do shift; done
bin="$2/node_modules/.bin"
mkdir -p "$bin"
ln -s '${process.execPath}' "$bin/node"
ln -s '${pnpm}' "$bin/pnpm"
echo "added 3 packages in 1s"
echo "npm notice New minor version of npm available!"
`;

describe('pnpmw, first run', () => {
  it('installs Node and pnpm, then the dependencies, one line each with its time', () => {
    const { dir, env } = machine('good', goodNpm);
    const run = spawnSync('./pnpmw', ['--version'], { cwd: dir, env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))
      .packageManager.replace(/^pnpm@/, '')
      .split('+')[0];
    expect(run.stdout.trim()).toBe(version);
    expect(run.stderr).toMatch(
      new RegExp(
        `^\\[pnpmw\\] installing Node 22 and pnpm ${version.replaceAll('.', '\\.')} into \\.tools/ \\(one time\\)… done in \\d+ s\\n\\[pnpmw\\] installing dependencies… done in \\d+ s\\n$`,
      ),
    );
    // What npm said is in the log, not on the terminal.
    expect(readFileSync(join(dir, '.tools', 'install.log'), 'utf8')).toContain('npm notice');
    // The second run says nothing of its own.
    const again = spawnSync('./pnpmw', ['--version'], { cwd: dir, env, encoding: 'utf8' });
    expect(again.stderr).toBe('');
  });

  it('a failing install says so on its line, then shows what npm said, and stops', () => {
    const { dir, env } = machine(
      'offline',
      `#!/bin/sh
echo "npm error code ENOTFOUND" >&2
echo "npm error network request to https://registry.npmjs.org/node failed" >&2
exit 1
`,
    );
    const run = spawnSync('./pnpmw', ['--version'], { cwd: dir, env, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^\[pnpmw\] installing Node 22 and pnpm [\d.]+ into \.tools\/ \(one time\)… failed \(exit 1\); its output:\nnpm error code ENOTFOUND\nnpm error network request/,
    );
  });
});
