import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the daemon keeps its files inside the data dir. */
export function daemonFiles(home: string) {
  return {
    database: join(home, 'kiro-learn.db'),
    pid: join(home, 'collector.pid'),
    /** Held (an OS file lock) by the one collector that serves this data dir. */
    lock: join(home, 'collector.lock'),
    /** Pids of running extraction agents, reaped at start after a crash. */
    agents: join(home, 'agents'),
    log: join(home, 'logs', 'collector.log'),
    /** stderr of a detached start, shown when the daemon dies before answering. */
    startErr: join(home, 'logs', 'start.err'),
  };
}

/** What the PID file records about a running daemon. */
export interface PidInfo {
  pid: number;
  host: string;
  port: number;
  version: string;
  startedAt: string;
  /**
   * True once it listens, when hooks may post to its `POST /v1/hooks` (loopback, no
   * token): the hook launcher reads this file with shell builtins and takes the fast path
   * only then.
   */
  hooks?: boolean;
}

export function writePidFile(path: string, info: PidInfo): void {
  writeFileSync(path, `${JSON.stringify(info)}\n`, { mode: 0o600 });
}

/** The PID file's contents, or undefined when it is missing or unreadable. */
export function readPidFile(path: string): PidInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as PidInfo;
    return Number.isInteger(info.pid) && info.pid > 0 ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the PID file if it still names `pid` (a newer daemon may have replaced it). */
export function removePidFile(path: string, pid?: number): void {
  if (pid !== undefined && readPidFile(path)?.pid !== pid) return;
  rmSync(path, { force: true });
}

/** True while a process with this id exists (it may be someone else's after PID reuse). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
