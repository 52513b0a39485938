import { writeSync } from 'node:fs';
import { SHIM_SURFACES, type ShimSurface } from './hook.js';
import { runHook } from './run.js';

/** Payloads bigger than this are not read into memory. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;
/** An agent that never closes stdin must not hold the hook open. */
const STDIN_TIMEOUT_MS = 3000;

const USAGE =
  'usage: kiro-learn-shim <kiro|kiro-ide|claude-code> [prompt|tool|stop]\n' +
  'Runs inside an agent hook: reads the payload on stdin (Kiro IDE legacy: USER_PROMPT).\n';

/**
 * The shim process: `kiro-learn-shim <surface> [event]`. Always exits 0 (some agents block
 * a tool on another code); stdout carries only context for the agent.
 */
export async function main(argv: readonly string[]): Promise<void> {
  const [first, event] = argv;
  const surface = first === 'kiro-cli' ? 'kiro' : first;
  if (!SHIM_SURFACES.includes(surface as ShimSurface)) {
    write(2, `[kiro-learn] unknown surface ${JSON.stringify(first ?? '')}\n${USAGE}`);
    process.exit(0);
  }
  try {
    const stdin = surface === 'kiro-ide' ? undefined : await readStdin();
    await runHook({
      surface: surface as ShimSurface,
      ...(event ? { event } : {}),
      ...(stdin ? { stdin } : {}),
      env: process.env,
      cwd: process.cwd(),
      stdout: (text) => process.stdout.write(text),
      stderr: (line) => process.stderr.write(line),
    });
  } catch (error) {
    process.stderr.write(
      `[kiro-learn] ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  exit();
}

function exit(): void {
  process.stdout.write('', () => process.exit(0));
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
