import { existsSync } from 'node:fs';
import { delimiter, join, resolve, sep } from 'node:path';

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);

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
