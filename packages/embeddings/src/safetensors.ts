import { EmbeddingError } from './errors.js';

/** One tensor of a safetensors file, as fp32. */
export interface Tensor {
  shape: number[];
  data: Float32Array;
}

/**
 * Reads the fp16/fp32 tensors of a safetensors file (an 8-byte header length, a JSON
 * header, then raw little-endian data). fp16 is widened to fp32.
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
    if (name === '__metadata__') continue;
    const [start, end] = info.data_offsets;
    const count = info.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    if (info.dtype === 'F16') {
      for (let i = 0; i < count; i++)
        data[i] = halfToFloat(view.getUint16(base + start + i * 2, true));
    } else if (info.dtype === 'F32') {
      for (let i = 0; i < count; i++) data[i] = view.getFloat32(base + start + i * 4, true);
    } else {
      continue; // integer buffers (position_ids) are not weights
    }
    if (end - start !== count * (info.dtype === 'F16' ? 2 : 4)) {
      throw new EmbeddingError('model_invalid', `tensor ${name} has the wrong size`);
    }
    tensors.set(name, { shape: info.shape, data });
  }
  return tensors;
}

const HALF_TABLE = (() => {
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    table[h] =
      exponent === 0
        ? sign * 2 ** -14 * (mantissa / 1024)
        : exponent === 31
          ? mantissa
            ? Number.NaN
            : sign * Number.POSITIVE_INFINITY
          : sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
  }
  return table;
})();

function halfToFloat(h: number): number {
  return HALF_TABLE[h]!;
}
