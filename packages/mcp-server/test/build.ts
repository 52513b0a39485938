import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const built: Record<string, string> = {
  '@kiro-learn/mcp-server': 'packages/mcp-server/dist/cli.js',
  '@kiro-learn/shims': 'packages/shims/dist/bin/kiro.cjs',
  'kiro-learn': 'apps/collector/dist/cli.js',
};

/**
 * Child processes run built code. `turbo run test` builds it first (turbo.json lists these
 * packages' builds before this package's tests); a bare `vitest run` builds only what is
 * missing. Never rebuild what exists: turbo would rewrite dist/ under other suites' feet.
 */
export function build(...packages: string[]): void {
  const missing = packages.filter((name) => !existsSync(`${root}${built[name] ?? ''}`));
  if (missing.length === 0) return;
  const result = spawnSync(
    `${root}node_modules/.bin/turbo`,
    ['run', 'build', ...missing.map((name) => `--filter=${name}...`), '--output-logs=errors-only'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  if (result.status !== 0) {
    throw new Error(`building ${missing.join(', ')} failed:\n${result.stdout}\n${result.stderr}`);
  }
}
