import { availableParallelism } from 'node:os';
import { type Embedder, EmbeddingError, loadEmbedder, WASM_SLOWDOWN } from '@kiro-learn/embeddings';
import { embeddingText } from '@kiro-learn/retrieval';
import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { CollectorSettings } from './config/settings.js';
import { fastRuntimeFix } from './install/layout.js';
import type { Logger } from './log/logger.js';

/** Where semantic search stands, for /v1/status, `status` and `doctor`. */
export interface SemanticStatus {
  /** `on`: the model is loaded and used; `loading`; `off` by the settings; `failed` to load. */
  state: 'on' | 'loading' | 'off' | 'failed';
  /** Why it is not on, in words a user can act on. */
  reason?: string;
  /** The model's id, once loaded. */
  model?: string;
  /** `onnxruntime-node` or `wasm`, once loaded. */
  runtime?: string;
  /** Records that have a vector for the model, of all records (when on). */
  vectors?: { records: number; withVector: number };
  /**
   * When the model runs on the WASM engine because onnxruntime-node did not load: what
   * that costs, why, and the one command that fixes it. Never a silent slow path.
   */
  slow?: { what: string; fix: string };
  /** `int8` or `fp32` (onnxruntime-node; the WASM engine runs fp32), once loaded. */
  precision?: string;
  /**
   * Prompt retrievals since the collector started, by how their semantic share went:
   * `used`, or answered lexical only because it `timedOut` or `failed`.
   */
  prompts: SemanticPrompts;
}

/** Prompt retrievals by how their semantic share went (see SemanticStatus.prompts). */
export interface SemanticPrompts {
  used: number;
  timedOut: number;
  failed: number;
}

/** The collector's embedding model and the background work that keeps vectors current. */
export interface Semantic {
  /** The loaded model, or undefined while loading, off or failed (retrieval is then lexical). */
  embedder(): Embedder | undefined;
  status(): Promise<SemanticStatus>;
  /**
   * Embeds and stores the vectors of just-saved records, so they are found by meaning as
   * soon as the save returns; waits up to 2 s for a model still loading (the catch-up
   * after the load embeds them otherwise). Never throws (a record it could not embed is
   * picked up by the background catch-up).
   */
  embedRecords(records: readonly MemoryRecord[]): Promise<void>;
  /** Records may be missing vectors (an extraction stored some): embed them in the background. */
  catchUp(): void;
  /** Counts how a prompt retrieval's semantic share went (status, /metrics, the viewer). */
  notePrompt(outcome: 'used' | 'timed_out' | 'failed'): void;
  /**
   * Starts embedding a prompt's query text as soon as the prompt arrives, while its event
   * is being stored: the retrieval that asks `embedder()` for the same text moments later
   * gets this embedding (done, or under way) instead of queueing its own. Without a model,
   * nothing. One not asked for within PREFETCH_MS is withdrawn.
   */
  prefetch?(query: string): void;
  /**
   * Tells the model when the collector is busy answering requests: then it embeds on one
   * thread, else on two (where the machine has them).
   */
  setBusy(busy: () => boolean): void;
  /** Resolves once loading settled: with the model, or undefined (off, failed, closed). */
  ready(): Promise<Embedder | undefined>;
  /** Stops background work and frees the model. */
  close(): Promise<void>;
}

/** What the model is loaded with (tests pass their own loader). */
export type EmbedderLoader = typeof loadEmbedder;

const PAGE = 32;
/** How long a prefetched prompt embedding waits to be asked for (see Semantic.prefetch). */
const PREFETCH_MS = 10_000;
/** Prefetched prompt embeddings kept at most (the oldest is withdrawn past it). */
const PREFETCH_MAX = 256;

interface Prefetched {
  vectors: Promise<Float32Array[]>;
  abort: AbortController;
  timer: NodeJS.Timeout;
}

/**
 * The model as retrieval sees it: a query embedding prefetched for the same text is taken
 * (once) instead of embedding it again; the caller's signal still withdraws it while it
 * waits in the queue. Everything else goes to the model.
 */
function withPrefetched(model: Embedder, prefetched: Map<string, Prefetched>): Embedder {
  return {
    get modelId() {
      return model.modelId;
    },
    get dimension() {
      return model.dimension;
    },
    get runtime() {
      return model.runtime;
    },
    ...(model.fallbackReason !== undefined ? { fallbackReason: model.fallbackReason } : {}),
    embed(texts, options = {}) {
      const early =
        options.purpose === 'query' && texts.length === 1 ? prefetched.get(texts[0]!) : undefined;
      if (!early) return model.embed(texts, options);
      prefetched.delete(texts[0]!);
      clearTimeout(early.timer);
      if (options.signal?.aborted) early.abort.abort();
      else options.signal?.addEventListener('abort', () => early.abort.abort(), { once: true });
      return early.vectors;
    },
    close: () => model.close(),
  };
}

/** How long a save waits for a model that is still loading (see embedRecords). */
const LOADING_WAIT_MS = 2000;
/** How long the start-up warm-up embedding may take before it is given up (it only warms). */
const WARM_UP_MS = 10_000;

/**
 * Starts loading the model in the background (a worker thread: start-up and /healthz
 * never wait for it) unless `semantic.enabled` is false. Once loaded, embeds every record
 * without a vector for the model, newest first, one text at a time at document priority
 * (a prompt's embedding goes first); the same after every extraction.
 */
export function createSemantic(
  storage: StorageBackend,
  settings: CollectorSettings,
  logger: Logger,
  load: EmbedderLoader = loadEmbedder,
): Semantic {
  let state: SemanticStatus['state'] = settings.semantic.enabled ? 'loading' : 'off';
  let reason: string | undefined = settings.semantic.enabled
    ? 'the model is loading'
    : 'semantic.enabled is false in settings.json';
  let model: Embedder | undefined;
  let forRetrieval: Embedder | undefined;
  const prefetched = new Map<string, Prefetched>();
  let slow: SemanticStatus['slow'];
  let closed = false;
  let closing: Promise<void> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const prompts: SemanticPrompts = { used: 0, timedOut: 0, failed: 0 };
  let busy: () => boolean = () => false;
  // A stop gives a load under way up: it holds nothing a user needs, and on a loaded
  // machine it takes many seconds (a stop then waits one runtime call at most).
  const stopLoading = new AbortController();
  // Loaded and still warming up: not yet `model`, but close() must free it.
  let warming: Embedder | undefined;

  const loading: Promise<Embedder | undefined> = settings.semantic.enabled
    ? (async () => {
        const started = performance.now();
        try {
          const loaded = await load({
            runtime: settings.semantic.runtime,
            precision: settings.semantic.precision,
            // A second intra-op thread while no request is being answered: the collector's
            // own loop keeps a core whenever it has work.
            threads: Math.min(2, availableParallelism()),
            busy: () => busy(),
            signal: stopLoading.signal,
            ...(settings.semantic.modelDir ? { modelDir: settings.semantic.modelDir } : {}),
          });
          if (closed) {
            await loaded.close();
            return undefined;
          }
          warming = loaded;
          // The first embedding of a query is the slowest (the runtime sets itself up for
          // the input): paid here, not by the first prompt inside its retrieval budget. Bounded,
          // so a model that never answers leaves semantic search on (and its prompts timing
          // out, counted), never stuck loading.
          await loaded
            .embed(['warm up the query path'], {
              purpose: 'query',
              signal: AbortSignal.timeout(WARM_UP_MS),
            })
            .catch(() => {});
          warming = undefined;
          // Closed while warming up: close() freed it.
          if (closed) return undefined;
          model = loaded;
          forRetrieval = withPrefetched(loaded, prefetched);
          state = 'on';
          reason = undefined;
          if (loaded.runtime === 'wasm' && loaded.fallbackReason !== undefined) {
            slow = {
              what: `embeddings run on WASM, ${WASM_SLOWDOWN} slower than onnxruntime-node, which did not load (${firstLine(loaded.fallbackReason)})`,
              fix: fastRuntimeFix(),
            };
            logger.warn('semantic search on the slow WASM engine', slow);
          }
          logger.info('semantic search on', {
            model: loaded.modelId,
            runtime: loaded.runtime,
            ms: Math.round(performance.now() - started),
          });
          return loaded;
        } catch (error) {
          if (closed) return undefined;
          state = 'failed';
          const code = error instanceof EmbeddingError ? `${error.code}: ` : '';
          reason = `the embedding model did not load (${code}${error instanceof Error ? error.message : String(error)}); retrieval is lexical`;
          logger.warn('semantic search off', { reason });
          return undefined;
        }
      })()
    : Promise.resolve(undefined);
  void loading.then((loaded) => {
    if (loaded) catchUp();
  });

  async function embedAndStore(embedder: Embedder, records: readonly MemoryRecord[]) {
    const vectors = await embedder.embed(records.map(embeddingText));
    await storage.putVectors(
      embedder.modelId,
      records.map((record, i) => ({ recordId: record.record_id, vector: vectors[i]! })),
    );
  }

  async function catchUpLoop(embedder: Embedder): Promise<void> {
    do {
      again = false;
      let cursor: string | undefined;
      do {
        const page = await storage.recordsWithoutVector({
          modelId: embedder.modelId,
          limit: PAGE,
          ...(cursor !== undefined ? { cursor } : {}),
        });
        if (page.records.length > 0) await embedAndStore(embedder, page.records);
        cursor = page.nextCursor;
      } while (cursor !== undefined && !closed);
    } while (again && !closed);
  }

  function catchUp(): void {
    if (!model || closed) return;
    if (running) {
      again = true;
      return;
    }
    const embedder = model;
    running = catchUpLoop(embedder)
      .catch((error) => {
        if (!closed) logger.warn('embedding records failed', { error });
      })
      .finally(() => {
        running = undefined;
      });
  }

  return {
    embedder: () => forRetrieval,
    prefetch(query) {
      const embedder = model;
      if (!embedder || closed || query === '' || prefetched.has(query)) return;
      if (prefetched.size >= PREFETCH_MAX) {
        const [oldest, entry] = prefetched.entries().next().value!;
        prefetched.delete(oldest);
        clearTimeout(entry.timer);
        entry.abort.abort();
      }
      const abort = new AbortController();
      const vectors = embedder.embed([query], { purpose: 'query', signal: abort.signal });
      vectors.catch(() => {}); // withdrawn or failed: the retrieval that takes it is told
      const timer = setTimeout(() => {
        if (prefetched.get(query)?.abort !== abort) return;
        prefetched.delete(query);
        abort.abort();
      }, PREFETCH_MS);
      timer.unref();
      prefetched.set(query, { vectors, abort, timer });
    },
    ready: () => loading,
    async status() {
      const embedder = model;
      return {
        state,
        ...(reason ? { reason } : {}),
        ...(slow ? { slow } : {}),
        ...(embedder
          ? {
              model: embedder.modelId,
              runtime: embedder.runtime,
              precision:
                embedder.runtime === 'onnxruntime-node' ? settings.semantic.precision : 'fp32',
              vectors: await storage.vectorCoverage(embedder.modelId),
            }
          : {}),
        prompts: { ...prompts },
      };
    },
    notePrompt(outcome) {
      if (outcome === 'used') prompts.used++;
      else if (outcome === 'timed_out') prompts.timedOut++;
      else prompts.failed++;
    },
    setBusy(fn) {
      busy = fn;
    },
    async embedRecords(records) {
      // A model still loading is waited for a moment only: on a busy machine loading takes
      // many seconds, and a save (the MCP tools give up after 5 s) must not wait for it.
      // The catch-up that runs once it has loaded embeds these records then.
      const embedder =
        model ??
        (await Promise.race([
          loading,
          new Promise<undefined>((resolve) => {
            setTimeout(() => resolve(undefined), LOADING_WAIT_MS).unref();
          }),
        ]));
      if (!embedder || closed || records.length === 0) return;
      try {
        await embedAndStore(embedder, records);
      } catch (error) {
        if (!closed) logger.warn('embedding a saved record failed', { error });
        catchUp();
      }
    },
    catchUp,
    close() {
      // One close, however often asked: the daemon waits for it again after the drain, so
      // the process never exits while the worker is inside the runtime (that aborts it).
      closing ??= (async () => {
        closed = true;
        stopLoading.abort();
        for (const entry of prefetched.values()) clearTimeout(entry.timer);
        prefetched.clear();
        const embedder = model ?? warming;
        model = undefined;
        forRetrieval = undefined;
        await embedder?.close();
        // Settles at once when the load was given up; one that ignores the signal (a
        // test's loader) is closed by the load itself on its way out.
        await loading;
        await running;
      })();
      return closing;
    },
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
