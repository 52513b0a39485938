import { EmbeddingError } from './errors.js';
import { DataType, encodeModel, type Initializer, type Node } from './onnx-proto.js';
import type { Tensor } from './safetensors.js';

/** The parts of a BERT `config.json` the graph needs. */
export interface BertConfig {
  hidden_size: number;
  num_attention_heads: number;
  num_hidden_layers: number;
  layer_norm_eps?: number;
  hidden_act?: string;
}

/** How the encoder's dense layers compute. */
export type WeightPrecision = 'fp32' | 'int8';

/**
 * Builds a BERT encoder as an ONNX model (opset 20) from safetensors weights: inputs
 * `input_ids` and `attention_mask` ([batch, tokens], int64), output `last_hidden_state`
 * ([batch, tokens, hidden]). Token types are all zero (single sentences). onnxruntime's
 * optimiser fuses the attention and layer-norm patterns at load.
 *
 * `int8` is dynamic quantisation, as onnxruntime's `quantize_dynamic` does it: every dense
 * layer's weights become int8 with one scale per output column, and each call quantises
 * its activations on the fly (`com.microsoft.DynamicQuantizeMatMul`, an integer GEMM).
 * Weights keep 7 bits (±63): the AVX2 integer kernel adds pairs of u8×s8 products in 16
 * bits, which full-range weights can overflow. Embeddings, layer norms, attention scores
 * and each layer's FFN down-projection stay fp32.
 */
export function buildBertModel(
  tensors: Map<string, Tensor>,
  config: BertConfig,
  precision: WeightPrecision = 'fp32',
): Uint8Array {
  const hidden = config.hidden_size;
  const heads = config.num_attention_heads;
  const headSize = hidden / heads;
  const eps = config.layer_norm_eps ?? 1e-12;
  if ((config.hidden_act ?? 'gelu') !== 'gelu' || !Number.isInteger(headSize)) {
    throw new EmbeddingError('model_invalid', 'unsupported BERT configuration');
  }
  const nodes: Node[] = [];
  const initializers: Initializer[] = [];
  const weight = (name: string, transpose = false): string => {
    const tensor = tensors.get(name) ?? tensors.get(`bert.${name}`);
    if (!tensor) throw new EmbeddingError('model_invalid', `weights have no tensor ${name}`);
    let { data, shape } = tensor;
    if (transpose) {
      // PyTorch Linear keeps [out, in]; MatMul wants [in, out].
      const [rows, cols] = shape as [number, number];
      const t =
        data instanceof Uint16Array ? new Uint16Array(data.length) : new Float32Array(data.length);
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < cols; c++) t[c * rows + r] = data[r * cols + c]!;
      data = t;
      shape = [cols, rows];
    }
    const half = data instanceof Uint16Array;
    const stored = half ? `${name}.fp16` : name;
    initializers.push({
      name: stored,
      dims: shape,
      type: half ? DataType.FLOAT16 : DataType.FLOAT,
      raw: bytesOf(data),
    });
    // A constant cast: onnxruntime folds it into an fp32 constant when the session loads.
    if (half) {
      nodes.push({
        op: 'Cast',
        inputs: [stored],
        outputs: [name],
        attributes: { to: DataType.FLOAT },
      });
    }
    return name;
  };
  const constant = (name: string, values: number[], type: 1 | 7 = DataType.INT64): string => {
    const raw =
      type === DataType.INT64
        ? bytesOf(BigInt64Array.from(values.map(BigInt)))
        : bytesOf(Float32Array.from(values));
    initializers.push({ name, dims: [values.length], type, raw });
    return name;
  };
  let counter = 0;
  const op = (type: string, inputs: string[], attributes?: Node['attributes']): string => {
    const output = `t${counter++}`;
    nodes.push({ op: type, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  };
  const quantized = (name: string): [string, string] => {
    const tensor = tensors.get(name) ?? tensors.get(`bert.${name}`);
    if (!tensor) throw new EmbeddingError('model_invalid', `weights have no tensor ${name}`);
    const { q, scales, rows, cols } = quantizeColumns(tensor);
    initializers.push({ name: `${name}.int8`, dims: [cols, rows], type: DataType.INT8, raw: q });
    initializers.push({
      name: `${name}.scale`,
      dims: [rows],
      type: DataType.FLOAT,
      raw: bytesOf(scales),
    });
    return [`${name}.int8`, `${name}.scale`];
  };
  const linear = (x: string, prefix: string, quantize = precision === 'int8') => {
    if (quantize) {
      const [q, scales] = quantized(`${prefix}.weight`);
      const output = `t${counter++}`;
      nodes.push({
        op: 'DynamicQuantizeMatMul',
        domain: 'com.microsoft',
        inputs: [x, q, scales, '', weight(`${prefix}.bias`)],
        outputs: [output],
      });
      return output;
    }
    return op('Add', [
      op('MatMul', [x, weight(`${prefix}.weight`, true)]),
      weight(`${prefix}.bias`),
    ]);
  };
  const layerNorm = (x: string, prefix: string) =>
    op('LayerNormalization', [x, weight(`${prefix}.weight`), weight(`${prefix}.bias`)], {
      axis: -1,
      epsilon: { float: eps },
    });

  // The vocabulary's vectors are 30k × hidden, the largest tensor: with int8 they stay fp16
  // in memory (half the size) and only the rows a text uses are cast.
  const wordVectors = (): string => {
    const name = 'embeddings.word_embeddings.weight';
    const tensor = tensors.get(name) ?? tensors.get(`bert.${name}`);
    if (precision !== 'int8' || !(tensor?.data instanceof Uint16Array)) {
      return op('Gather', [weight(name), 'input_ids'], { axis: 0 });
    }
    const stored = `${name}.fp16`;
    initializers.push({
      name: stored,
      dims: tensor.shape,
      type: DataType.FLOAT16,
      raw: bytesOf(tensor.data),
    });
    return op('Cast', [op('Gather', [stored, 'input_ids'], { axis: 0 })], { to: DataType.FLOAT });
  };

  // Embeddings: words + positions [0, tokens) + token type 0, then layer norm.
  const zero = constant('zero', [0]);
  const one = constant('one', [1]);
  const tokens = op('Slice', [op('Shape', ['input_ids']), one, constant('two', [2])]);
  const positions = op('Slice', [
    weight('embeddings.position_embeddings.weight'),
    zero,
    tokens,
    zero,
  ]);
  const typeRow = op('Gather', [weight('embeddings.token_type_embeddings.weight'), zero], {
    axis: 0,
  });
  const words = wordVectors();
  let x = layerNorm(op('Add', [op('Add', [words, positions]), typeRow]), 'embeddings.LayerNorm');

  // Additive attention mask: 0 where kept, -10000 where padding; [batch, 1, 1, tokens].
  const maskFloat = op('Cast', ['attention_mask'], { to: DataType.FLOAT });
  const inverted = op('Sub', [constant('onef', [1], DataType.FLOAT), maskFloat]);
  const additive = op('Mul', [inverted, constant('neg', [-10000], DataType.FLOAT)]);
  const mask = op('Unsqueeze', [additive, constant('axes12', [1, 2])]);

  const splitShape = constant('split', [0, 0, heads, headSize]);
  const mergeShape = constant('merge', [0, 0, hidden]);
  const scale = constant('scale', [1 / Math.sqrt(headSize)], DataType.FLOAT);
  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}`;
    const split = (name: string, perm: number[]) =>
      op('Transpose', [op('Reshape', [linear(x, `${p}.attention.self.${name}`), splitShape])], {
        perm,
      });
    const q = split('query', [0, 2, 1, 3]);
    const k = split('key', [0, 2, 3, 1]);
    const v = split('value', [0, 2, 1, 3]);
    const scores = op('Add', [op('Mul', [op('MatMul', [q, k]), scale]), mask]);
    const probs = op('Softmax', [scores], { axis: -1 });
    const context = op('Reshape', [
      op('Transpose', [op('MatMul', [probs, v])], { perm: [0, 2, 1, 3] }),
      mergeShape,
    ]);
    const attended = op('Add', [linear(context, `${p}.attention.output.dense`), x]);
    x = layerNorm(attended, `${p}.attention.output.LayerNorm`);
    const inner = op('Gelu', [linear(x, `${p}.intermediate.dense`)]);
    // The FFN's down-projection stays fp32: its input, after GELU, has outliers that one
    // activation scale per call flattens (cosine to fp32 0.990 when quantised, 0.995 kept).
    const down = linear(inner, `${p}.output.dense`, false);
    x = layerNorm(op('Add', [down, x]), `${p}.output.LayerNorm`);
  }
  nodes.push({ op: 'Identity', inputs: [x], outputs: ['last_hidden_state'] });

  return encodeModel({
    opset: 20,
    ...(precision === 'int8' ? { domains: ['com.microsoft'] } : {}),
    nodes,
    initializers,
    inputs: [
      { name: 'input_ids', type: DataType.INT64, shape: ['batch', 'tokens'] },
      { name: 'attention_mask', type: DataType.INT64, shape: ['batch', 'tokens'] },
    ],
    outputs: [
      { name: 'last_hidden_state', type: DataType.FLOAT, shape: ['batch', 'tokens', hidden] },
    ],
  });
}

/** Largest weight magnitude kept: 7 bits, so the AVX2 u8×s8 pair sums cannot saturate. */
const INT8_LIMIT = 63;

/**
 * A PyTorch Linear weight ([out, in], fp16 or fp32) as int8 in MatMul's [in, out] layout,
 * symmetric, with one scale per output column.
 */
function quantizeColumns(tensor: Tensor): {
  q: Uint8Array;
  scales: Float32Array;
  rows: number;
  cols: number;
} {
  const [rows, cols] = tensor.shape as [number, number];
  // Decoded once into fp32: a per-weight decode function made this the slowest part of
  // loading the model (~10 s of a 12 s start on a loaded machine, for 21M weights).
  const values =
    tensor.data instanceof Uint16Array ? halfToFloat32(tensor.data) : (tensor.data as Float32Array);
  const scales = new Float32Array(rows);
  const q = new Int8Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const row = r * cols;
    let max = 0;
    for (let c = 0; c < cols; c++) {
      const v = Math.abs(values[row + c]!);
      if (v > max) max = v;
    }
    const scale = max > 0 ? max / INT8_LIMIT : 1;
    scales[r] = scale;
    for (let c = 0; c < cols; c++) q[c * rows + r] = Math.round(values[row + c]! / scale);
  }
  return { q: new Uint8Array(q.buffer), scales, rows, cols };
}

/** IEEE 754 half-precision values as fp32, through a table of all 65,536 of them. */
function halfToFloat32(halves: Uint16Array): Float32Array {
  halfTable ??= Float32Array.from({ length: 0x10000 }, (_, h) => halfToFloat(h));
  const out = new Float32Array(halves.length);
  for (let i = 0; i < halves.length; i++) out[i] = halfTable[halves[i]!]!;
  return out;
}
let halfTable: Float32Array | undefined;

/** IEEE 754 half precision to a number. */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

function bytesOf(array: Float32Array | Uint16Array | BigInt64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
