import { EmbeddingError } from './errors.js';

/** One tensor of a safetensors file: fp16 as raw 16-bit words, or fp32. */
export interface Tensor {
  shape: number[];
  data: Uint16Array | Float32Array;
}

/**
 * Reads the fp16/fp32 tensors of a safetensors file (an 8-byte header length, a JSON
 * header, then raw little-endian data). fp16 stays fp16 (half the memory): the graph
 * casts it, and onnxruntime folds the casts into fp32 constants at load.
 */
export function readSafetensors(bytes: Uint8Array): Map<string, Tensor> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8) throw new EmbeddingError('model_invalid', 'weights file too short');
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength <= 0 || 8 + headerLength > bytes.byteLength) {
    throw new EmbeddingError('model_invalid', 'weights file is not safetensors');
  }
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)),
  ) as Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }>;
  const base = 8 + headerLength;
  const tensors = new Map<string, Tensor>();
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__' || (info.dtype !== 'F16' && info.dtype !== 'F32')) continue;
    const [start, end] = info.data_offsets;
    const count = info.shape.reduce((a, b) => a * b, 1);
    const width = info.dtype === 'F16' ? 2 : 4;
    if (end - start !== count * width || base + end > bytes.byteLength) {
      throw new EmbeddingError('model_invalid', `tensor ${name} has the wrong size`);
    }
    // Copied out: the file's buffer is not aligned for typed arrays.
    const raw = new Uint8Array(bytes.subarray(base + start, base + end));
    tensors.set(name, {
      shape: info.shape,
      data: width === 2 ? new Uint16Array(raw.buffer) : new Float32Array(raw.buffer),
    });
  }
  return tensors;
}
