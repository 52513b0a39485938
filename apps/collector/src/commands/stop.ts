import { cliAddress, probe, sleep } from '../lifecycle/client.js';
import { daemonFiles, processAlive, readPidFile, removePidFile } from '../lifecycle/files.js';
import { line, parseCommandArgs } from './args.js';
import type { Command, CommandIO } from './types.js';

const STOP_TIMEOUT_MS = 20_000;

export const stop: Command = {
  name: 'stop',
  summary: 'stop the collector gracefully',
  usage: `kiro-learn stop

Asks the collector to finish in-flight requests and stop (SIGTERM); kills it if it has
not stopped after ${STOP_TIMEOUT_MS / 1000} s. Saying "not running" is not an error.`,
  async run(args, io) {
    parseCommandArgs('stop', args, {});
    return (await stopCollector(io)) ? 0 : 1;
  },
};

/** Stops the collector if one runs; false only when one runs and could not be stopped. */
export async function stopCollector(io: CommandIO): Promise<boolean> {
  const address = cliAddress(io.env);
  const files = daemonFiles(address.home);
  const recorded = readPidFile(files.pid);
  const health = await probe(address);
  if (!health.ok) {
    // The PID may belong to another program by now: never signal a process that does not answer.
    if (recorded) removePidFile(files.pid, recorded.pid);
    line(io.stdout, 'kiro-learn collector is not running');
    return true;
  }
  const pid = health.pid ?? recorded?.pid;
  if (pid === undefined) {
    line(
      io.stderr,
      `kiro-learn: a collector answers at ${address.baseUrl} but does not say its pid; stop it by hand`,
    );
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (processAlive(pid) && Date.now() < deadline) await sleep(50);
  if (processAlive(pid)) {
    process.kill(pid, 'SIGKILL');
    line(
      io.stdout,
      `kiro-learn collector (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s; killed it`,
    );
  } else {
    line(io.stdout, `kiro-learn collector stopped (pid ${pid})`);
  }
  removePidFile(files.pid, pid);
  return true;
}
