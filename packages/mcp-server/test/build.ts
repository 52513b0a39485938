import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Builds workspace packages (and what they depend on) with turbo, so child processes run current code. */
export function build(...packages: string[]): void {
  const filters = packages.map((name) => `--filter=${name}...`);
  const result = spawnSync(
    `${root}node_modules/.bin/turbo`,
    ['run', 'build', ...filters, '--output-logs=errors-only'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  if (result.status !== 0) {
    throw new Error(`building ${packages.join(', ')} failed:\n${result.stdout}\n${result.stderr}`);
  }
}
