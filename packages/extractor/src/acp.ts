import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { ExtractorError } from './errors.js';
import { forgetAgent, recordAgent } from './reap.js';

/** One prompt to one fresh agent process. */
export interface AcpPromptOptions {
  /** Program and arguments (already split). */
  command: readonly string[];
  /** The prompt text. */
  prompt: string;
  /** Working directory of the agent and of its ACP session (absolute). */
  cwd: string;
  /**
   * Environment of the agent process; the collector's when omitted. `KIRO_LEARN_CAPTURE`
   * is always `off` in it: the agent may load the user's own memory hooks, which must not
   * record (and feed back) the extraction turns themselves.
   */
  env?: NodeJS.ProcessEnv;
  /** Whole-turn limit, spawn to last chunk. */
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the agent has to be stopped. */
  killGraceMs: number;
  /** Characters of the agent's stderr kept for the log (the tail). */
  stderrChars?: number;
  /** Aborting stops the agent at once (shutdown); the prompt then fails with `aborted`. */
  signal?: AbortSignal;
  /**
   * A directory where the agent's pid is recorded while it runs, so a later
   * `reapStaleAgents(pidDir)` can stop agents this process left behind when it was killed.
   */
  pidDir?: string;
}

/** The agent's streamed reply and what it wrote to stderr. */
export interface AcpReply {
  text: string;
  stderr: string;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Signals the agent's whole process group (it runs in its own), else the agent alone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
}

/**
 * Stops the agent: EOF on stdin, then SIGTERM, then SIGKILL after the grace period, to
 * its whole process group (whatever it started goes too); resolves once reaped.
 */
async function stop(child: ChildProcess, closed: Promise<void>, graceMs: number): Promise<void> {
  if (child.pid === undefined) return;
  if (!exited(child)) {
    child.stdin?.end();
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    await closed;
    clearTimeout(timer);
  }
  await closed;
  // Helpers the agent started may outlive it in its group.
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is gone
  }
}

/**
 * Spawns the agent, runs `initialize` → `session/new` → one `session/prompt`, and returns
 * the text of its `agent_message_chunk` updates. The turn races the timeout and the
 * child's exit, so a crash surfaces at once instead of after the timeout. The child is
 * always stopped and reaped before this settles: no zombies, whatever happened.
 */
export async function runAcpPrompt(options: AcpPromptOptions): Promise<AcpReply> {
  const [program, ...args] = options.command;
  if (program === undefined)
    throw new ExtractorError('invalid_config', 'the agent command is empty');
  const stderrChars = options.stderrChars ?? 8192;
  let stderr = '';
  if (options.signal?.aborted) throw aborted();
  // Its own process group: stopping it stops everything it started, and a collector killed
  // with -9 leaves a group that reapStaleAgents can find and stop.
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), KIRO_LEARN_CAPTURE: 'off' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  const record =
    options.pidDir && child.pid !== undefined
      ? recordAgent(options.pidDir, child.pid, program)
      : undefined;
  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    // 'close' never comes when spawning failed.
    child.once('error', () => child.pid === undefined && resolve());
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-stderrChars);
  });
  // Writing to an agent that just died raises EPIPE on stdin; the exit is reported instead.
  child.stdin.on('error', () => {});

  const failure = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(
        new ExtractorError('spawn_failed', `cannot start the agent ${program}: ${error.message}`, {
          cause: error,
        }),
      ),
    );
    child.once('exit', (code, signal) => {
      // A reply written just before exiting may still be in the pipe: let it land first.
      const report = () =>
        setImmediate(() =>
          reject(
            new ExtractorError(
              'agent_exited',
              `the agent exited (${signal ?? `code ${code}`}) before finishing its reply`,
            ),
          ),
        );
      const grace = setTimeout(report, 250);
      void closed.then(() => {
        clearTimeout(grace);
        report();
      });
    });
  });
  let onAbort: (() => void) | undefined;
  const abort = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted());
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ExtractorError('timeout', `the agent did not reply within ${options.timeoutMs} ms`),
        ),
      options.timeoutMs,
    );
  });

  const chunks: string[] = [];
  const app = client({ name: 'kiro-learn' })
    .onNotification(methods.client.session.update, ({ params }) => {
      const update = params.update;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
        chunks.push(update.content.text);
      }
    })
    // The compressor has no tools; refuse anything it asks permission for.
    .onRequest(methods.client.session.requestPermission, () => ({
      outcome: { outcome: 'cancelled' },
    }));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const turn = app.connectWith(stream, async (ctx) => {
    await ctx.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: 'kiro-learn', version: '1' },
    });
    const session = await ctx.request(methods.agent.session.new, {
      cwd: options.cwd,
      mcpServers: [],
    });
    const response = await ctx.request(methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: options.prompt }],
    });
    return response.stopReason;
  });

  let failed: ExtractorError | undefined;
  try {
    const stopReason = await Promise.race([turn, failure, timeout, abort]);
    if (stopReason !== 'end_turn') {
      failed = new ExtractorError('protocol', `the agent stopped its turn with ${stopReason}`);
    }
  } catch (error) {
    if (error instanceof ExtractorError) failed = error;
    else {
      // The SDK sees the closed pipe before Node reports the exit: a dying agent, not a protocol error.
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 250))]);
      failed = exited(child)
        ? new ExtractorError(
            'agent_exited',
            `the agent exited (${child.signalCode ?? `code ${child.exitCode}`}) before finishing its reply`,
          )
        : new ExtractorError('protocol', `ACP error from the agent: ${describe(error)}`, {
            cause: error,
          });
    }
  }
  clearTimeout(timer);
  if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  // The losers of the race settle later; nobody else listens to them.
  turn.catch(() => {});
  failure.catch(() => {});
  timeout.catch(() => {});
  abort.catch(() => {});
  await stop(child, closed, options.killGraceMs);
  if (record) forgetAgent(record);
  // Read stderr only now: a crashing agent's last words arrive after its exit.
  if (failed) {
    const tail = stderr.trim().slice(-300);
    const message = tail === '' ? failed.message : `${failed.message}; agent stderr: ${tail}`;
    throw new ExtractorError(failed.code, message, { stderr, cause: failed.cause });
  }
  return { text: chunks.join(''), stderr };
}

const aborted = () => new ExtractorError('aborted', 'the extraction was stopped (shutdown)');

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return String(error);
}
