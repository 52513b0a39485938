import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';

/** The oldest Node the hook scripts run on: autostart needs `process.getBuiltinModule`. */
export const HOOK_NODE_FLOOR = '20.16.0';
/** The oldest Node the MCP server runs on (its `engines`: `>=20.16`). */
export const MCP_NODE_FLOOR = '20.16.0';

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
 * qualifies: a hook pointing into a checkout breaks when the checkout moves. When more
 * than one qualifies, start-up is measured (median of 3 × `node -e ''`, without
 * NODE_EXTRA_CA_CERTS, as the hook launcher runs them); versions and times are asked once
 * per process.
 */
export function chooseNode(
  execPath: string,
  env: NodeJS.ProcessEnv,
  floor: string = HOOK_NODE_FLOOR,
): NodeChoice {
  const seen = new Set<string>();
  const qualified: NodeChoice[] = [];
  const privateOnes: NodeChoice[] = [];
  const candidates = [
    ...(env['PATH'] ?? '').split(delimiter).flatMap((dir) => (dir ? [join(dir, 'node')] : [])),
    execPath,
  ];
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
    const version = versionOf(real, env);
    if (!version || !atLeast(version, floor)) continue;
    (candidate.split(sep).includes('.tools') ? privateOnes : qualified).push({
      path: candidate,
      version,
    });
  }
  const pool = qualified.length > 0 ? qualified : privateOnes;
  // Only a choice needs a measurement: each start costs init (and doctor) real time.
  if (pool.length < 2) return pool[0] ?? { path: execPath, version: process.versions.node };
  const timed = pool.map((choice) => ({
    ...choice,
    startMs: startMsOf(realpathSync(choice.path)),
  }));
  return timed.sort((a, b) => a.startMs - b.startMs)[0]!;
}

/** What this process learned about each Node binary (by real path): asked once. */
const versions = new Map<string, string | undefined>();
const starts = new Map<string, number>();

function versionOf(real: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!versions.has(real)) versions.set(real, nodeVersion(real, env));
  return versions.get(real);
}

/** Median wall time of 3 × `node -e ''` of a Node binary, in ms (measured once per process). */
export function nodeStartMs(path: string): number {
  return startMsOf(realpathSync(path));
}

function startMsOf(real: string): number {
  let ms = starts.get(real);
  if (ms === undefined) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = process.hrtime.bigint();
      spawnSync(real, ['-e', ''], { env: {}, timeout: 5000 });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    ms = times.sort((a, b) => a - b)[1]!;
    starts.set(real, ms);
  }
  return ms;
}

/**
 * Kept for callers of the earlier API: the Node a hook command should start, by the rule
 * of `chooseNode` with the hooks' floor.
 */
export function stableNode(execPath: string, env: NodeJS.ProcessEnv): string {
  return chooseNode(execPath, env).path;
}
