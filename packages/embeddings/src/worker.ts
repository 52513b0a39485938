/**
 * The embedding worker thread: loads one model and embeds texts on request, so a model
 * run (up to ~60 ms for a long record) never blocks the collector's event loop.
 * Protocol: `init` → `ready` | `failed`; `embed` → `vectors` | `error`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { type Engine, type EngineOptions, loadEngine, type RuntimePreference } from './engines.js';
import { EmbeddingError } from './errors.js';
import { defaultModelFiles, directoryModelFiles } from './model.js';

/** What the worker is started with. */
export interface WorkerInit extends EngineOptions {
  modelDir?: string;
  runtime: RuntimePreference;
}

/** Messages from the worker. */
export type WorkerReply =
  | {
      type: 'ready';
      modelId: string;
      dimension: number;
      runtime: Engine['runtime'];
      fallbackReason?: string;
    }
  | { type: 'failed'; code: EmbeddingError['code']; message: string }
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; code: EmbeddingError['code']; message: string };

/** Messages to the worker. */
export type WorkerRequest =
  | { type: 'embed'; id: number; texts: string[]; wide: boolean; batch: boolean }
  | { type: 'close' };

const port = parentPort;
if (port) {
  const init = workerData as WorkerInit;
  const codeOf = (error: unknown) =>
    error instanceof EmbeddingError ? error.code : 'embed_failed';
  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
  let engine: Engine | undefined;
  try {
    const files = init.modelDir ? directoryModelFiles(init.modelDir) : await defaultModelFiles();
    engine = await loadEngine(files, init.runtime, init);
    // One embedding tells the dimension and warms the runtime up.
    const probe = await engine.embedOne('kiro-learn');
    collectLoadGarbage();
    const reply: WorkerReply = {
      type: 'ready',
      modelId: files.modelId,
      dimension: probe.length,
      runtime: engine.runtime,
      ...(engine.fallbackReason !== undefined ? { fallbackReason: engine.fallbackReason } : {}),
    };
    port.postMessage(reply);
  } catch (error) {
    const reply: WorkerReply = { type: 'failed', code: codeOf(error), message: messageOf(error) };
    port.postMessage(reply);
  }
  // One message at a time: a `close` waits for the embedding under way. Releasing the
  // session mid-run, or terminating the thread then, aborts the whole process (the
  // onnxruntime addon throws from native code while its environment is torn down).
  let handled: Promise<void> = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    handled = handled.then(() => handle(request));
  });
  const handle = async (request: WorkerRequest): Promise<void> => {
    if (request.type === 'close') {
      await engine?.close();
      // Nothing else keeps the thread alive: it ends by itself.
      port.close();
      return;
    }
    try {
      if (!engine) throw new EmbeddingError('closed', 'the model did not load');
      let vectors: Float32Array[];
      if (request.batch) vectors = await engine.embedMany(request.texts, request.wide);
      else {
        vectors = [];
        for (const text of request.texts) vectors.push(await engine.embedOne(text, request.wide));
      }
      const reply: WorkerReply = { type: 'vectors', id: request.id, vectors };
      port.postMessage(
        reply,
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (error) {
      const reply: WorkerReply = {
        type: 'error',
        id: request.id,
        code: codeOf(error),
        message: messageOf(error),
      };
      port.postMessage(reply);
    }
  };
}

/**
 * One full collection once the model is loaded. Loading leaves ~150 MB of garbage (the
 * weights file and the graph built from it, handed to the runtime by copy); an idle worker
 * allocates too little afterwards for V8 ever to collect it, so the collector would carry
 * it for as long as it runs. `gc` is exposed to one throwaway context only.
 */
function collectLoadGarbage(): void {
  try {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  } catch {
    // Not fatal: the memory is only held longer.
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
