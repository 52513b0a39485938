import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
/** The built package: a child process cannot load the TypeScript sources. */
const DIST = new URL('../dist/index.js', import.meta.url).href;

/** Runs `script` (an ES module) in a Node child: its exit code, signal and output. */
async function runScript(name: string, script: string) {
  const dir = mkdtempSync(join(tmpdir(), `kl-embed-${name}-`));
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, script);
  try {
    return await run(process.execPath, [file]).then(
      ({ stdout }) => ({ code: 0, signal: null, stdout: stdout.trim() }),
      (error: { code?: number; signal?: string; stdout?: string; stderr?: string }) => ({
        code: error.code,
        signal: error.signal,
        stdout: error.stdout?.trim(),
        stderr: error.stderr,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A collector stopping while it embeds records closes its embedder mid-run. Terminating
// the worker then made the onnxruntime addon throw from native code, and the whole
// process died with SIGABRT instead of finishing its shutdown.
it('closing while a text is being embedded leaves the process running, to exit normally', async () => {
  const script = `
    import { loadEmbedder } from ${JSON.stringify(DIST)};
    const embedder = await loadEmbedder({ runtime: 'onnxruntime-node' });
    const texts = Array.from({ length: 20 }, (_, i) => 'word '.repeat(200) + i);
    const jobs = embedder.embed(texts).then(() => 'embedded', () => 'rejected');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await embedder.close();
    console.log(await jobs);
  `;
  const result = await runScript('close', script);
  expect(result).toEqual({ code: 0, signal: null, stdout: 'rejected' });
});

// A collector stopping while its model still loads gives the load up (a load takes many
// seconds on a loaded machine). Terminating the worker while onnxruntime creates a session
// aborted the process as above; the load is given up between the runtime's calls instead.
it('giving a load up at any point leaves the process running, to exit normally', async () => {
  const script = `
    import { loadEmbedder } from ${JSON.stringify(DIST)};
    const started = performance.now();
    await (await loadEmbedder({ runtime: 'onnxruntime-node', threads: 2 })).close();
    const whole = performance.now() - started;
    const outcomes = new Set();
    for (let i = 1; i <= 8; i++) {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), (whole * i) / 8);
      const loading = loadEmbedder({ runtime: 'onnxruntime-node', threads: 2, signal: stop.signal });
      outcomes.add(await loading.then((e) => e.close().then(() => 'loaded'), (e) => e.code));
    }
    console.log([...outcomes].filter((o) => o !== 'loaded').join(','));
  `;
  const result = await runScript('abort', script);
  expect(result).toEqual({ code: 0, signal: null, stdout: 'aborted' });
});
