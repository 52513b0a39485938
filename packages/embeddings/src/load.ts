import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { WeightPrecision } from './bert-graph.js';
import type { Embedder, EmbeddingRuntime, EmbedOptions } from './embedder.js';
import type { RuntimePreference } from './engines.js';
import { EmbeddingError } from './errors.js';
import { createGate, type Gate, stopWorker } from './gate.js';
import type { WorkerInit, WorkerReply, WorkerRequest } from './worker.js';

/** Options of `loadEmbedder`. */
export interface LoadEmbedderOptions {
  /** A local model directory (see README); omitted: the default all-MiniLM-L6-v2. */
  modelDir?: string;
  /** `auto` (default): onnxruntime-node when it loads, else the WASM engine. */
  runtime?: RuntimePreference;
  /**
   * `int8` (default): the default model's dense layers run as int8 on onnxruntime-node
   * (dynamic quantisation; vectors within cosine 0.99 of fp32, so the model id is the same);
   * `fp32`: full precision. An ONNX model directory and the WASM engine run as they are.
   */
  precision?: WeightPrecision;
  /**
   * Tokens of a text that are embedded, [CLS] and [SEP] included; the rest is left out.
   * Default 128 (a record's title, summary and first facts); never above the model's own
   * limit (256 for the default model).
   */
  maxTokens?: number;
  /**
   * Intra-op threads an embedding may use while `busy()` says the caller is idle (default
   * 1). onnxruntime-node only; the second thread roughly halves a long text's time.
   */
  threads?: number;
  /**
   * Whether the caller is busy now (e.g. answering requests): then every embedding runs
   * on one thread, leaving the other cores to it. Default: never busy.
   */
  busy?: () => boolean;
  /**
   * Gives the load up: the worker is stopped as soon as it is safe (at once, or when the
   * runtime call under way returns) and the load rejects with `aborted`.
   */
  signal?: AbortSignal;
}

/** Tokens embedded by default: what retrieval needs of a record (see `maxTokens`). */
export const DEFAULT_MAX_TOKENS = 128;

/**
 * Loads a model in a worker thread and resolves once it has embedded a probe text.
 * Rejects with EmbeddingError (`model_not_found`, `model_invalid`, `runtime_unavailable`,
 * `aborted`).
 */
export async function loadEmbedder(options: LoadEmbedderOptions = {}): Promise<Embedder> {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const gate = createGate();
  const init: WorkerInit = {
    runtime: options.runtime ?? 'auto',
    precision: options.precision ?? 'int8',
    maxTokens: Math.max(8, Math.floor(options.maxTokens ?? DEFAULT_MAX_TOKENS)),
    threads,
    gate,
    ...(options.modelDir !== undefined ? { modelDir: options.modelDir } : {}),
  };
  const { signal } = options;
  if (signal?.aborted) throw abortedLoad();
  const worker = new Worker(workerUrl(), { workerData: init });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise<Embedder>((resolve, reject) => {
    let settled = false;
    const fail = (error: EmbeddingError) => {
      settled = true;
      signal?.removeEventListener('abort', abort);
      void stopWorker(worker, gate, exited).then(() => reject(error));
    };
    const abort = () => {
      if (!settled) fail(abortedLoad());
    };
    signal?.addEventListener('abort', abort, { once: true });
    // Gone without a word (killed from outside): say so rather than wait forever.
    void exited.then(() => {
      if (!settled) fail(new EmbeddingError('runtime_unavailable', 'the embedding worker exited'));
    });
    worker.once('error', (error) =>
      fail(
        new EmbeddingError('runtime_unavailable', `the embedding worker failed: ${error.message}`),
      ),
    );
    worker.once('message', (reply: WorkerReply) => {
      worker.removeAllListeners('error');
      if (settled) return;
      if (reply.type === 'ready') {
        settled = true;
        signal?.removeEventListener('abort', abort);
        const wide =
          threads > 1 && reply.runtime === 'onnxruntime-node'
            ? options.busy
              ? () => !options.busy!()
              : () => true
            : () => false;
        resolve(
          new WorkerEmbedder(
            worker,
            gate,
            exited,
            reply.modelId,
            reply.dimension,
            reply.runtime,
            wide,
            reply.fallbackReason,
          ),
        );
      } else if (reply.type === 'failed') {
        fail(new EmbeddingError(reply.code, reply.message));
      } else {
        fail(new EmbeddingError('embed_failed', 'unexpected reply from the embedding worker'));
      }
    });
  });
}

/**
 * The compiled worker. Under the TypeScript sources (tests, `@kiro-learn/source`) the
 * worker still runs from dist/, because Node cannot resolve the sources' `.js` imports.
 */
function workerUrl(): URL {
  const here = import.meta.url;
  const url = here.endsWith('.ts')
    ? new URL('../dist/worker.js', here)
    : new URL('./worker.js', here);
  if (!existsSync(url)) {
    throw new EmbeddingError(
      'runtime_unavailable',
      `${url.pathname} is missing: build @kiro-learn/embeddings`,
    );
  }
  return url;
}

interface Job {
  texts: string[];
  batch: boolean;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: EmbeddingError) => void;
}

/**
 * Runs jobs one at a time in the worker: queries first, then documents one text at a
 * time (or one `batch` job), so a prompt waits for at most one document embedding.
 */
class WorkerEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimension: number;
  readonly runtime: EmbeddingRuntime;
  readonly fallbackReason?: string;
  readonly #worker: Worker;
  readonly #gate: Gate;
  readonly #exited: Promise<void>;
  readonly #queries: Job[] = [];
  readonly #documents: Job[] = [];
  #running: Job | undefined;
  readonly #wide: () => boolean;
  #nextId = 0;
  #closed = false;

  constructor(
    worker: Worker,
    gate: Gate,
    exited: Promise<void>,
    modelId: string,
    dimension: number,
    runtime: EmbeddingRuntime,
    wide: () => boolean,
    fallbackReason?: string,
  ) {
    this.#worker = worker;
    this.#gate = gate;
    this.#exited = exited;
    this.#wide = wide;
    this.modelId = modelId;
    this.dimension = dimension;
    this.runtime = runtime;
    if (fallbackReason !== undefined) this.fallbackReason = fallbackReason;
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.#settle(reply));
    worker.on('error', (error) => this.#failAll(`the embedding worker failed: ${error.message}`));
    worker.on('exit', () => this.#failAll('the embedding worker exited'));
  }

  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.#closed) return Promise.reject(new EmbeddingError('closed', 'the embedder is closed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortedError());
    if (texts.length === 0) return Promise.resolve([]);
    const queue = options.purpose === 'query' ? this.#queries : this.#documents;
    const enqueue = (job: Job) => {
      queue.push(job);
      signal?.addEventListener('abort', () => this.#withdraw(queue, job), { once: true });
      this.#pump();
    };
    if (options.purpose === 'query' || options.batch) {
      return new Promise((resolve, reject) =>
        enqueue({ texts: [...texts], batch: options.purpose !== 'query', resolve, reject }),
      );
    }
    // Documents one text per job, so queued queries get in between.
    return Promise.all(
      texts.map(
        (text) =>
          new Promise<Float32Array>((resolve, reject) =>
            enqueue({ texts: [text], batch: false, resolve: (v) => resolve(v[0]!), reject }),
          ),
      ),
    );
  }

  /** An aborted job still queued leaves the queue; one already running finishes. */
  #withdraw(queue: Job[], job: Job): void {
    const at = queue.indexOf(job);
    if (at === -1) return;
    queue.splice(at, 1);
    job.reject(abortedError());
  }

  #pump(): void {
    if (this.#running || this.#closed) return;
    const job = this.#queries.shift() ?? this.#documents.shift();
    if (!job) {
      this.#worker.unref();
      return;
    }
    this.#running = job;
    this.#worker.ref();
    const request: WorkerRequest = {
      type: 'embed',
      id: this.#nextId++,
      texts: job.texts,
      wide: this.#wide(),
      batch: job.batch,
    };
    this.#worker.postMessage(request);
  }

  #settle(reply: WorkerReply): void {
    const job = this.#running;
    this.#running = undefined;
    if (job && reply.type === 'vectors') job.resolve(reply.vectors);
    else if (job && reply.type === 'error')
      job.reject(new EmbeddingError(reply.code, reply.message));
    this.#pump();
  }

  #failAll(message: string): void {
    this.#closed = true;
    const jobs = [...(this.#running ? [this.#running] : []), ...this.#queries, ...this.#documents];
    this.#running = undefined;
    this.#queries.length = 0;
    this.#documents.length = 0;
    for (const job of jobs) job.reject(new EmbeddingError('closed', message));
  }

  /**
   * Rejects the jobs still queued, lets the worker finish the embedding under way, free the
   * model and end by itself; one still running after `graceMs` is stopped as soon as it is
   * out of the runtime (see gate.ts: terminating it inside aborts the process).
   */
  async close(graceMs = 5000): Promise<void> {
    if (this.#closed) return;
    this.#failAll('the embedder is closed');
    const worker = this.#worker;
    if (worker.threadId === -1) return;
    worker.ref(); // an unref'd worker's exit would not keep the process alive to see it
    const request: WorkerRequest = { type: 'close' };
    worker.postMessage(request);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, graceMs, 'late');
    });
    if ((await Promise.race([this.#exited, late])) === 'late') {
      await stopWorker(worker, this.#gate, this.#exited);
    }
    clearTimeout(timer);
  }
}

function abortedLoad(): EmbeddingError {
  return new EmbeddingError('aborted', 'the model load was given up');
}

function abortedError(): EmbeddingError {
  return new EmbeddingError('aborted', 'the embedding was withdrawn before it ran');
}
