import { isFileLocked } from '@kiro-learn/storage/lock';
import { cliAddress, probe, probeRunning, sleep } from '../lifecycle/client.js';
import { daemonFiles, processAlive, readPidFile, removePidFile } from '../lifecycle/files.js';
import { line, parseCommandArgs } from './args.js';
import type { Command, CommandIO } from './types.js';

const STOP_TIMEOUT_MS = 20_000;
/** How long a running collector gets to answer /healthz, and a killed one to let go. */
const PATIENCE_MS = 5_000;

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

/**
 * Stops the collector if one runs; false only when one runs and could not be stopped.
 * "Running" is decided by the data dir's lock, which only a live collector can hold: one
 * that is starting or already stopping does not answer /healthz but still runs, and is
 * waited for (never reported "not running", its PID file never removed while it lives).
 */
export async function stopCollector(io: CommandIO): Promise<boolean> {
  const address = cliAddress(io.env);
  const files = daemonFiles(address.home);
  // A collector busy on a loaded machine may take seconds to answer: given a few, it is
  // asked to stop gracefully (SIGTERM) rather than waited for and killed, and another data
  // dir's is named rather than missed (a free port refuses at once: no wait then).
  const health = isFileLocked(files.lock)
    ? await probeRunning(address, files.lock, PATIENCE_MS)
    : await probe(address, PATIENCE_MS);
  // Looked at after the wait: meanwhile a collector that was stopping may have finished
  // (and another `stop` removed its PID file).
  const locked = isFileLocked(files.lock);
  const recorded = readPidFile(files.pid);
  if (!locked) {
    // No live collector of this data dir: a PID file left is a crashed one's (its pid may be
    // another program's now). One that answers on the port without holding this data dir's
    // lock is another data dir's collector: not ours to stop.
    if (recorded) removePidFile(files.pid, recorded.pid);
    line(
      io.stdout,
      health.ok
        ? `kiro-learn collector for ${address.home} is not running (the collector at ${address.baseUrl} uses another data dir; stop it with its own KIRO_LEARN_HOME)`
        : 'kiro-learn collector is not running',
    );
    return true;
  }
  // This data dir's collector wrote the PID file; /healthz answers for whatever holds the port.
  const pid =
    recorded && processAlive(recorded.pid)
      ? recorded.pid
      : ((health.ok ? health.pid : undefined) ?? recorded?.pid);
  if (pid === undefined && !isFileLocked(files.lock)) {
    // It finished stopping (another `stop` took its PID file) while this one looked.
    line(io.stdout, 'kiro-learn collector is not running');
    return true;
  }
  if (pid === undefined) {
    line(
      io.stderr,
      health.ok
        ? `kiro-learn: a collector answers at ${address.baseUrl} but does not say its pid; stop it by hand`
        : `kiro-learn: a collector holds ${files.lock} but left no PID file; stop it by hand`,
    );
    return false;
  }
  // One that does not answer is starting or already stopping: wait for it rather than
  // signal again (a second SIGTERM means "stop now" to the collector).
  if (health.ok && processAlive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  const running = () => processAlive(pid) || isFileLocked(files.lock);
  while (running() && Date.now() < deadline) await sleep(50);
  if (running()) {
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    // Gone only once its lock is free: a start right after must not find it "running".
    const killed = Date.now() + PATIENCE_MS;
    while (running() && Date.now() < killed) await sleep(50);
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
