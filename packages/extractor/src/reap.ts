import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** What is recorded about a running agent: enough to recognise it later. */
interface AgentRecord {
  pid: number;
  program: string;
}

/** Records a started agent in `pidDir`; returns the file to remove once it is reaped. */
export function recordAgent(pidDir: string, pid: number, program: string): string {
  const file = join(pidDir, `${pid}.json`);
  try {
    mkdirSync(pidDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ pid, program } satisfies AgentRecord), { mode: 0o600 });
  } catch {
    // best effort: without the record only reaping after a crash is lost
  }
  return file;
}

export function forgetAgent(file: string): void {
  rmSync(file, { force: true });
}

/**
 * Stops agents a previous process left running (it was killed before it could reap them):
 * SIGKILL to each recorded agent's process group, when that process still runs the
 * recorded program (checked in /proc where there is one, so a recycled pid is never hit).
 * Forgets every record. Returns the pids stopped. Call it only while no other process
 * uses `pidDir` (the collector holds its data-dir lock).
 */
export function reapStaleAgents(pidDir: string): number[] {
  if (!existsSync(pidDir)) return [];
  const stopped: number[] = [];
  for (const name of readdirSync(pidDir)) {
    if (!name.endsWith('.json')) continue;
    const file = join(pidDir, name);
    try {
      const record = JSON.parse(readFileSync(file, 'utf8')) as AgentRecord;
      if (Number.isInteger(record.pid) && record.pid > 1 && runs(record)) {
        process.kill(-record.pid, 'SIGKILL');
        stopped.push(record.pid);
      }
    } catch {
      // gone already, or not ours to signal
    }
    rmSync(file, { force: true });
  }
  return stopped;
}

/** Whether `record.pid` is alive and (where /proc tells) still runs the recorded program. */
function runs(record: AgentRecord): boolean {
  try {
    process.kill(record.pid, 0);
  } catch {
    return false;
  }
  const cmdline = `/proc/${record.pid}/cmdline`;
  if (!existsSync('/proc/self')) return true;
  try {
    const argv = readFileSync(cmdline, 'utf8').split('\0');
    return argv.some((arg) => arg !== '' && basename(arg) === basename(record.program));
  } catch {
    return false;
  }
}
