import { readFileSync } from 'node:fs';
import type { Event } from '@kiro-learn/schema';
import {
  envFor as sharedEnvFor,
  flood as sharedFlood,
  tempHome as sharedTempHome,
} from '@kiro-learn/test-harness';
import { event } from '@kiro-learn/test-harness/events';

export {
  CLI,
  type CollectorChild,
  cli as kiroLearn,
  cliAsync as kiroLearnAsync,
  freePort,
  healthy,
  missing,
  missingAfterRestart,
  NO_MODEL,
  post,
  removeHomes,
  repoRoot,
  sleep,
  spawnCollector,
} from '@kiro-learn/test-harness';

export const NS = '/actor/dev/project/fault/';

/** A fresh data dir, removed by `removeHomes`. */
export const tempHome = () => sharedTempHome('kl-fault-');

/** A collector's environment, extracting with the built-in extractor. */
export function envFor(home: string, port: number, extra: Record<string, string> = {}) {
  return sharedEnvFor(home, port, { KIRO_LEARN_EXTRACTOR: 'builtin', ...extra });
}

/** A valid event of the fault namespace: a file read. */
export function makeEvent(overrides: Partial<Event> = {}): Event {
  const data = { tool_name: 'fs_read', tool_input: { path: 'src/app.ts' }, tool_response: 'ok' };
  const source = { surface: 'kiro-cli', version: '1.0.0', client_id: 'fault' } as const;
  return event({
    session_id: 'fault-session',
    actor_id: 'dev',
    namespace: NS,
    kind: 'tool_use',
    body: { type: 'json', data },
    source,
    ...overrides,
  });
}

/** Floods the collector with fault-namespace events (or `event`'s) from `clients` clients. */
export const flood = (
  port: number,
  clients: number,
  event: () => Event = () => makeEvent(),
  path = '/v1/events',
) => sharedFlood(port, clients, event, path);

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/** True while `pid` runs (a zombie nobody reaped yet counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
