import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFileLocked } from '@kiro-learn/storage/lock';
import {
  api,
  cliAddress,
  otherDataDir,
  otherDataDirHelp,
  probe,
  sleep,
} from '../lifecycle/client.js';
import { daemonFiles, readPidFile } from '../lifecycle/files.js';
import { line, parseCommandArgs } from './args.js';
import type { Command, CommandIO } from './types.js';

const START_TIMEOUT_MS = 20_000;

export const start: Command = {
  name: 'start',
  summary: 'start the collector (in the background unless --foreground)',
  usage: `kiro-learn start [--foreground]

Starts the collector daemon and returns once it answers on its port.
  --foreground   serve in this terminal; Ctrl-C stops it gracefully
Honours KIRO_LEARN_HOME, KIRO_LEARN_HOST, KIRO_LEARN_PORT, KIRO_LEARN_TOKEN.`,
  async run(args, io) {
    const { values } = parseCommandArgs('start', args, { foreground: { type: 'boolean' } });
    const address = cliAddress(io.env);
    const files = daemonFiles(address.home);
    // The lock first: while a collector holds this data dir's lock, nothing else may serve
    // it, and that is known at once, without waiting for an answer from any port.
    if (isFileLocked(files.lock)) {
      const holder = readPidFile(files.pid);
      if (holder !== undefined && holder.port !== address.port) {
        line(
          io.stderr,
          `kiro-learn: cannot start: the data dir ${address.home} is in use by another kiro-learn collector (pid ${holder.pid}, port ${holder.port}); stop it first (kiro-learn stop), or give this one its own data dir (KIRO_LEARN_HOME)`,
        );
        return 1;
      }
      line(
        io.stdout,
        `kiro-learn collector is already running (pid ${holder?.pid ?? '?'}) at ${address.baseUrl}`,
      );
      return 0;
    }
    // Then the port: a collector of another data dir may hold it.
    const running = await probe(address);
    const other = otherDataDir(running, address.home);
    if (other !== undefined) {
      const { held, fix } = otherDataDirHelp(address, other, running.pid);
      line(io.stderr, `kiro-learn: cannot start: ${held}; ${fix}`);
      return 1;
    }
    if (running.ok) {
      line(
        io.stdout,
        `kiro-learn collector is already running (pid ${running.pid ?? '?'}) at ${address.baseUrl}`,
      );
      return 0;
    }
    return values.foreground ? foreground(io) : background(io);
  },
};

async function foreground(io: CommandIO): Promise<number> {
  // Listened for before start-up: `stop` may signal as soon as the PID file names this
  // process, and a SIGTERM then must stop it cleanly once started, not kill it half-way.
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  // Loaded only here: a detached start is a small process that waits for this one.
  const { startDaemon } = await import('../daemon.js');
  const daemon = await startDaemon({
    env: io.env,
    ...(io.stderr.isTTY ? { pretty: io.stderr } : {}),
  });
  line(io.stdout, `kiro-learn collector listening on ${daemon.url} (pid ${process.pid})`);
  const signal = await signalled;
  // A second signal while draining means "now".
  const force = () => process.exit(130);
  process.once('SIGINT', force).once('SIGTERM', force);
  line(io.stdout, `${signal}: finishing in-flight requests, then stopping`);
  await daemon.stop();
  // Everything is on disk and closed: nothing left may hold the process open.
  setTimeout(() => process.exit(0), 1000).unref();
  return 0;
}

/** Re-runs this CLI as `start --foreground`, detached, and waits for it to answer. */
async function background(io: CommandIO): Promise<number> {
  const address = cliAddress(io.env);
  const files = daemonFiles(address.home);
  mkdirSync(dirname(files.startErr), { recursive: true, mode: 0o700 });
  const errFd = openSync(files.startErr, 'w', 0o600);
  const cli = fileURLToPath(new URL(`../cli${extname(import.meta.url)}`, import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, cli, 'start', '--foreground'], {
    detached: true,
    stdio: ['ignore', 'ignore', errFd],
    env: io.env,
    cwd: address.home,
  });
  closeSync(errFd);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  child.unref();

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const health = await probe(address, 500);
    if (health.ok && health.pid === child.pid) {
      line(io.stdout, `kiro-learn collector started (pid ${child.pid}) at ${address.baseUrl}`);
      line(io.stdout, `logs: ${files.log}`);
      const damaged = await integrity(address);
      if (damaged) line(io.stderr, `kiro-learn: warning: ${damaged}`);
      await warnSlowEmbeddings(io);
      return 0;
    }
    if (exited !== undefined) {
      const why = readFileSync(files.startErr, 'utf8').trim();
      // Lost a race with another start: that one is serving (or about to), which is what
      // was asked. Wait for it to answer rather than report a failure. (Exit code 0 before
      // answering means exactly that; its message may be lost, since concurrent starts
      // share start.err.)
      if (exited === 0 || /already running/.test(why)) {
        const winner = await answers(address, deadline);
        const other = winner && otherDataDir(winner, address.home);
        if (other !== undefined) {
          const { held, fix } = otherDataDirHelp(address, other, winner?.pid);
          line(io.stderr, `kiro-learn: cannot start: ${held}; ${fix}`);
          return 1;
        }
        line(
          io.stdout,
          `kiro-learn collector is already running (pid ${winner?.pid ?? '?'}) at ${address.baseUrl}`,
        );
        return 0;
      }
      line(
        io.stderr,
        why || `kiro-learn: the collector exited with code ${exited} before it answered`,
      );
      return 1;
    }
    await sleep(100);
  }
  line(
    io.stderr,
    `kiro-learn: the collector did not answer on ${address.baseUrl} within ${START_TIMEOUT_MS / 1000} s; see ${files.log}`,
  );
  return 1;
}

/** The collector answering at `address` before `deadline`, if one does. */
async function answers(address: ReturnType<typeof cliAddress>, deadline: number) {
  for (;;) {
    const health = await probe(address, 500);
    if (health.ok) return health;
    if (Date.now() >= deadline) return undefined;
    await sleep(100);
  }
}

/**
 * Never a silent slow path: without onnxruntime-node (a plain `npm install -g` drops it)
 * the model runs on WASM. Said at start with the command that fixes it; `status` and
 * `doctor` also say it when the runtime is installed but does not load here.
 */
async function warnSlowEmbeddings(io: CommandIO): Promise<void> {
  const { fastRuntimeInstalled, WASM_SLOWDOWN } = await import('@kiro-learn/embeddings');
  if (fastRuntimeInstalled()) return;
  const { fastRuntimeFix } = await import('../install/layout.js');
  line(
    io.stderr,
    `kiro-learn: onnxruntime-node is not installed, so embeddings run on WASM, ${WASM_SLOWDOWN} slower; fix: ${fastRuntimeFix()}`,
  );
}

/** How long `start` waits for the collector's integrity check before it leaves it to the log. */
const INTEGRITY_WAIT_MS = 10_000;

/**
 * What the collector's start-up integrity check found, when the database is damaged: it
 * runs on a worker thread, so `start` waits for it a little (a large file takes seconds;
 * past the wait, the log, `status` and `doctor` tell).
 */
async function integrity(address: ReturnType<typeof cliAddress>): Promise<string | undefined> {
  const deadline = Date.now() + INTEGRITY_WAIT_MS;
  while (Date.now() < deadline) {
    const storage = await api<{
      storage?: { integrity?: string; error?: string; problems?: string[] };
    }>(address, '/v1/status').then(
      (status) => status.storage,
      () => undefined,
    );
    if (storage?.integrity === 'damaged') {
      const found = storage.problems?.length ? ` (${storage.problems.slice(0, 2).join('; ')})` : '';
      return `${storage.error ?? 'the database is damaged'}${found}`;
    }
    if (storage?.integrity !== 'checking') return undefined;
    await sleep(100);
  }
  return undefined;
}
