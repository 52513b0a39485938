import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type BertConfig, buildBertModel, type WeightPrecision } from './bert-graph.js';
import type { EmbeddingRuntime } from './embedder.js';
import { EmbeddingError } from './errors.js';
import { type Gate, inAddon } from './gate.js';
import type { ModelFiles } from './model.js';
import { meanPool, normalize } from './pooling.js';
import { readSafetensors } from './safetensors.js';
import { wordPieceTokenizer } from './tokenizer.js';

/** A loaded model in one runtime. */
export interface Engine {
  runtime: EmbeddingRuntime;
  /** Why onnxruntime-node is not the runtime, when `auto` fell back to WASM. */
  fallbackReason?: string;
  /** `wide`: with every intra-op thread the engine was loaded with, else one. */
  embedOne(text: string, wide?: boolean): Promise<Float32Array>;
  /**
   * Many texts, in order: on onnxruntime in runs of several texts of about the same length
   * (see `batchRuns`), else one at a time.
   */
  embedMany(texts: readonly string[], wide?: boolean): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** How an engine runs the model. */
export interface EngineOptions {
  /** Dense layers in int8 (the default model on onnxruntime only) or fp32. */
  precision: WeightPrecision;
  /** Intra-op threads of a `wide` embedding (onnxruntime only); 1: there is no wide one. */
  threads: number;
  /** Tokens embedded at most, [CLS] and [SEP] included (never above the model's limit). */
  maxTokens: number;
  /** In a worker: marks every onnxruntime call, so the worker is stopped only between them. */
  gate?: Gate;
}

/**
 * Padded tokens per run when texts are embedded together: one run of several texts does
 * more work per call than one of a short text (the dense layers' GEMMs get more rows), and
 * texts of about the same length waste little on padding. Measured on the retrieval eval's
 * records (median 60 tokens), one thread: 1.2× the records per CPU-second of one text a run
 * at 256–1,024 tokens a run, sorted by length (unsorted, 0.9×); see docs/embedding-retrieval.md.
 */
export const BATCH_TOKENS = 512;

/**
 * Texts' token counts grouped into runs: indices sorted by length, then consecutive texts
 * while the run, padded to its longest, stays within `budget` tokens (a longer text runs alone).
 */
export function batchRuns(lengths: readonly number[], budget = BATCH_TOKENS): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  const runs: number[][] = [];
  let run: number[] = [];
  for (const i of order) {
    // Ascending order: this text is the run's longest, so the run pads to its length.
    if (run.length > 0 && (run.length + 1) * lengths[i]! > budget) {
      runs.push(run);
      run = [];
    }
    run.push(i);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Which runtime to use: the fastest that loads, or one in particular. */
export type RuntimePreference = 'auto' | EmbeddingRuntime;

/**
 * Loads the model in onnxruntime-node when it is installed and loads, else in the
 * WASM engine (BERT safetensors only). `auto` falls back; a named runtime does not.
 */
export async function loadEngine(
  files: ModelFiles,
  prefer: RuntimePreference,
  options: EngineOptions,
): Promise<Engine> {
  const maxTokens = Math.min(files.maxTokens, options.maxTokens);
  if (prefer !== 'wasm') {
    try {
      return await loadOnnxEngine(files, { ...options, maxTokens });
    } catch (error) {
      if (prefer === 'onnxruntime-node' || files.graph.kind === 'onnx') throw error;
      // The slow path is never silent: the collector says why, and what fixes it.
      const fallbackReason = error instanceof Error ? error.message : String(error);
      return { ...(await loadWasmEngine(files, maxTokens)), fallbackReason };
    }
  }
  return loadWasmEngine(files, maxTokens);
}

type Ort = typeof import('onnxruntime-node');

async function importOrt(gate: Gate | undefined): Promise<Ort> {
  try {
    return await inAddon(gate, () => import('onnxruntime-node'));
  } catch (error) {
    throw new EmbeddingError(
      'runtime_unavailable',
      `onnxruntime-node is not usable here (${String(error).split('\n')[0]})`,
      { cause: error },
    );
  }
}

async function loadOnnxEngine(files: ModelFiles, options: EngineOptions): Promise<Engine> {
  const { gate } = options;
  const ort = await importOrt(gate);
  const tokenizer = wordPieceTokenizer(readFileSync(files.tokenizerPath, 'utf8'));
  let model: Uint8Array | string;
  if (files.graph.kind === 'onnx') {
    model = files.graph.path;
  } else {
    const config = JSON.parse(readFileSync(files.graph.configPath, 'utf8')) as BertConfig;
    const weights = readSafetensors(readFileSync(files.graph.weightsPath));
    model = buildBertModel(weights, config, options.precision);
  }
  type Session = Awaited<ReturnType<Ort['InferenceSession']['create']>>;
  const open = (threads: number): Promise<Session> => {
    const sessionOptions = {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
      // Pool threads sleep between runs instead of spinning: a collector that is not
      // embedding costs no CPU.
      extra: { 'session.intra_op.allow_spinning': '0' },
    } as const;
    return inAddon(gate, () =>
      typeof model === 'string'
        ? ort.InferenceSession.create(model, sessionOptions)
        : ort.InferenceSession.create(model, sessionOptions),
    );
  };
  let session: Session;
  // A second session with more intra-op threads for `wide` embeddings: onnxruntime fixes
  // a session's threads when it is created.
  let wideSession: Session | undefined;
  try {
    session = await open(1);
    if (options.threads > 1) wideSession = await open(options.threads);
  } catch (error) {
    throw new EmbeddingError(
      'model_invalid',
      `onnxruntime cannot load the model: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  model = '';
  const wantsTypes = session.inputNames.includes('token_type_ids');
  const output = session.outputNames.includes('last_hidden_state')
    ? 'last_hidden_state'
    : session.outputNames.includes('token_embeddings')
      ? 'token_embeddings'
      : session.outputNames[0]!;
  /** Last hidden states of texts' ids, padded to the longest: [texts, tokens, dim]. */
  const run = async (texts: number[][], wide: boolean) => {
    const n = Math.max(...texts.map((ids) => ids.length));
    const inputIds = new BigInt64Array(texts.length * n);
    const mask = new BigInt64Array(texts.length * n);
    for (const [b, ids] of texts.entries()) {
      for (const [t, id] of ids.entries()) {
        inputIds[b * n + t] = BigInt(id);
        mask[b * n + t] = 1n;
      }
    }
    const dims = [texts.length, n];
    const feeds: Record<string, InstanceType<Ort['Tensor']>> = {
      input_ids: new ort.Tensor('int64', inputIds, dims),
      attention_mask: new ort.Tensor('int64', mask, dims),
    };
    if (wantsTypes) {
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(texts.length * n), dims);
    }
    const chosen = (wide ? wideSession : undefined) ?? session;
    const result = await inAddon(gate, () => chosen.run(feeds));
    return { tensor: result[output]!, tokens: n };
  };
  /** One text's vector from a run's output: its own tokens' mean, or a pooled output. */
  const vectorOf = (
    tensor: Awaited<ReturnType<typeof run>>['tensor'],
    tokens: number,
    b: number,
    length: number,
  ) => {
    const data = tensor.data as Float32Array;
    if (tensor.dims.length === 2) {
      const dim = Number(tensor.dims[1]);
      return normalize(data.slice(b * dim, (b + 1) * dim));
    }
    const dim = Number(tensor.dims[2]);
    const rows = data.subarray(b * tokens * dim, (b * tokens + length) * dim);
    return meanPool(rows, length, dim, new Uint8Array(length).fill(1));
  };
  return {
    runtime: 'onnxruntime-node',
    async embedOne(text, wide = false) {
      const { ids } = tokenizer.encode(text, options.maxTokens);
      const { tensor, tokens } = await run([ids], wide);
      return vectorOf(tensor, tokens, 0, ids.length);
    },
    async embedMany(texts, wide = false) {
      const encoded = texts.map((text) => tokenizer.encode(text, options.maxTokens).ids);
      const vectors: Float32Array[] = new Array(texts.length);
      for (const indices of batchRuns(encoded.map((ids) => ids.length))) {
        const { tensor, tokens } = await run(
          indices.map((i) => encoded[i]!),
          wide,
        );
        for (const [b, i] of indices.entries()) {
          vectors[i] = vectorOf(tensor, tokens, b, encoded[i]!.length);
        }
      }
      return vectors;
    },
    async close() {
      await inAddon(gate, () => session.release());
      const wide = wideSession;
      if (wide) await inAddon(gate, () => wide.release());
    },
  };
}

interface WasmModule {
  Embedder: new (
    weights: Uint8Array,
    tokenizer: Uint8Array,
    config: Uint8Array,
    maxTokens: number,
  ) => { embed(texts: string[]): number[][] | Float32Array[]; free?(): void };
}

async function loadWasmEngine(files: ModelFiles, maxTokens: number): Promise<Engine> {
  if (files.graph.kind !== 'bert') {
    throw new EmbeddingError('runtime_unavailable', 'an ONNX model needs onnxruntime-node');
  }
  let wasm: WasmModule;
  try {
    // @lat.md/embed exports only its ESM index; its engine is the wasm-bindgen CommonJS beside it.
    const require = createRequire(import.meta.url);
    wasm = require(new URL('./engine.cjs', import.meta.resolve('@lat.md/embed')).pathname);
  } catch (error) {
    throw new EmbeddingError(
      'runtime_unavailable',
      `the WASM engine is not installed: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  let engine: InstanceType<WasmModule['Embedder']>;
  try {
    engine = new wasm.Embedder(
      new Uint8Array(readFileSync(files.graph.weightsPath)),
      new Uint8Array(readFileSync(files.tokenizerPath)),
      new Uint8Array(readFileSync(files.graph.configPath)),
      maxTokens,
    );
  } catch (error) {
    throw new EmbeddingError(
      'model_invalid',
      `the WASM engine cannot load the model: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  const embedOne = async (text: string) => normalize(Float32Array.from(engine.embed([text])[0]!));
  return {
    runtime: 'wasm',
    embedOne,
    async embedMany(texts) {
      const vectors: Float32Array[] = [];
      for (const text of texts) vectors.push(await embedOne(text));
      return vectors;
    },
    async close() {
      engine.free?.();
    },
  };
}
