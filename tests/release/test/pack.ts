import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve, sep } from 'node:path';

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);

/** `pnpm pack` of each package dir (workspace: and catalog: ranges become versions). */
export function packAll(dirs: readonly string[]): Map<string, string> {
  const out = mkdtempSync(join(tmpdir(), 'kiro-learn-pack-'));
  const tarballs = new Map<string, string>();
  for (const dir of dirs) {
    const before = new Set(readdirSync(out));
    execFileSync('pnpm', ['pack', '--pack-destination', out], {
      cwd: join(repoRoot, dir),
      stdio: 'pipe',
    });
    const file = readdirSync(out).find((f) => !before.has(f))!;
    const { name } = JSON.parse(
      execFileSync('tar', ['-xOzf', join(out, file), 'package/package.json'], { encoding: 'utf8' }),
    ) as { name: string };
    tarballs.set(name, join(out, file));
  }
  return tarballs;
}

/**
 * An empty npm project with the tarballs installed from disk and everything else from the
 * registry: what a user gets from `npm install`.
 */
export function scratchProject(tarballs: Map<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-scratch-'));
  const deps = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: 'scratch', private: true, type: 'module', dependencies: deps, overrides: deps },
      null,
      2,
    ),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    // As the docs tell users: onnxruntime-node's install script only fetches GPU libraries.
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
    stdio: 'pipe',
    timeout: 240_000,
  });
  return dir;
}

/**
 * The machine's own Node: the first `node` on PATH outside the repository wrapper's
 * private `.tools/` (which supplies Node 22 where the machine has an older one). Falls
 * back to the Node running the tests when the machine has no other.
 */
export function machineNode(): string {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir || dir.split(sep).includes('.tools')) continue;
    const candidate = join(dir, 'node');
    if (existsSync(candidate)) return candidate;
  }
  return process.execPath;
}
