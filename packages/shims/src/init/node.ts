import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';

/** The oldest Node the hook scripts run on: autostart needs `process.getBuiltinModule`. */
export const HOOK_NODE_FLOOR = '20.16.0';
/** The oldest Node the MCP server runs on (its `engines`). */
export const MCP_NODE_FLOOR = '22.0.0';

/** A Node binary and what it is. */
export interface NodeChoice {
  /** Absolute path. */
  path: string;
  /** `process.versions.node`. */
  version: string;
  /** Median wall time of `node -e ''`, in ms, where measured. */
  startMs?: number;
}

/** True when version `a` is at least `b` (dotted numbers). */
export function atLeast(a: string, b: string): boolean {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return true;
}

/** The version of a Node binary, or undefined when it does not run. */
export function nodeVersion(path: string, env: NodeJS.ProcessEnv = {}): string | undefined {
  const out = spawnSync(path, ['-p', 'process.versions.node'], {
    encoding: 'utf8',
    env: { PATH: env['PATH'] ?? '' },
    timeout: 5000,
  });
  const version = out.stdout?.trim();
  return out.status === 0 && /^\d+\.\d+\.\d+/.test(version ?? '') ? version : undefined;
}

/**
 * The one rule for the Node that hooks and the MCP server run on: the fastest Node that
 * meets `floor`, among those on the PATH and the one running now. The private Node that
 * the repository's `pnpmw` wrapper keeps under `.tools/` counts only when nothing else
 * qualifies: a hook pointing into a checkout breaks when the checkout moves. Start-up is
 * measured (median of 3 × `node -e ''`); NODE_EXTRA_CA_CERTS is left out of the
 * measurement, as the installed hook command leaves it out.
 */
export function chooseNode(
  execPath: string,
  env: NodeJS.ProcessEnv,
  floor: string = HOOK_NODE_FLOOR,
): NodeChoice {
  const seen = new Set<string>();
  const candidates: string[] = [];
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir) candidates.push(join(dir, 'node'));
  }
  candidates.push(execPath);
  const qualified: NodeChoice[] = [];
  const privateOnes: NodeChoice[] = [];
  for (const candidate of candidates) {
    let real: string;
    try {
      if (!existsSync(candidate)) continue;
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const version = nodeVersion(candidate, env);
    if (!version || !atLeast(version, floor)) continue;
    const choice = { path: candidate, version, startMs: startMs(candidate) };
    (candidate.split(sep).includes('.tools') ? privateOnes : qualified).push(choice);
  }
  const pool = qualified.length > 0 ? qualified : privateOnes;
  pool.sort((a, b) => (a.startMs ?? 0) - (b.startMs ?? 0));
  return pool[0] ?? { path: execPath, version: process.versions.node };
}

function startMs(node: string): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    spawnSync(node, ['-e', ''], { env: {}, timeout: 5000 });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[1]!;
}

/**
 * Kept for callers of the earlier API: the Node a hook command should start, by the rule
 * of `chooseNode` with the hooks' floor.
 */
export function stableNode(execPath: string, env: NodeJS.ProcessEnv): string {
  return chooseNode(execPath, env).path;
}
