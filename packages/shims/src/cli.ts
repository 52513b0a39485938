import { writeSync } from 'node:fs';
import { HOOK_ENTRIES } from './agents/entries.js';
import { MAX_STDIN_BYTES, SHIM_SURFACES, type ShimSurface } from './hook.js';
import { captureDisabled, runHook } from './run.js';

/** An agent that never closes stdin must not hold the hook open. */
const STDIN_TIMEOUT_MS = 3000;

const USAGE =
  `usage: kiro-learn-shim <${SHIM_SURFACES.join('|')}> [prompt|tool|stop]\n` +
  'Runs inside an agent hook: reads the payload on stdin (Kiro IDE legacy: USER_PROMPT).\n';

/**
 * The shim process: `kiro-learn-shim <surface> [event]`. Always exits 0 (some agents block
 * a tool on another code); stdout carries only context for the agent.
 */
export async function main(argv: readonly string[]): Promise<void> {
  // Before anything else, stdin included: a capture switched off costs nothing.
  if (captureDisabled(process.env)) process.exit(0);
  const [first, ...args] = argv;
  const surface = first === 'kiro-cli' ? 'kiro' : first;
  if (!SHIM_SURFACES.includes(surface as ShimSurface)) {
    write(2, `[kiro-learn] unknown surface ${JSON.stringify(first ?? '')}\n${USAGE}`);
    process.exit(0);
  }
  try {
    const stdin = HOOK_ENTRIES[surface as ShimSurface].stdin ? await readStdin() : undefined;
    await runHook({
      surface: surface as ShimSurface,
      args,
      ...(stdin ? { stdin } : {}),
      env: process.env,
      cwd: process.cwd(),
      stdout: (text) => write(1, text),
      stderr: (line) => write(2, line),
    });
  } catch (error) {
    write(2, `[kiro-learn] ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(0);
}

/**
 * Writes straight to the file descriptor: all of it is out before exit, and the process
 * never builds stdout/stderr streams (a measurable part of a hook's start-up). A closed
 * pipe (the agent stopped listening) is not worth more than silence.
 */
function write(fd: 1 | 2, text: string): void {
  let bytes = Buffer.from(text);
  for (let attempt = 0; bytes.length > 0 && attempt < 1000; attempt++) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}

function readStdin(): Promise<Buffer | undefined> {
  const input = process.stdin;
  if (input.isTTY) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      input.removeAllListeners('data');
      input.pause();
      resolve(size > MAX_STDIN_BYTES ? undefined : Buffer.concat(chunks));
    };
    const timer = setTimeout(done, STDIN_TIMEOUT_MS);
    input.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_STDIN_BYTES) chunks.push(chunk);
    });
    input.once('end', done);
    input.once('error', done);
  });
}
