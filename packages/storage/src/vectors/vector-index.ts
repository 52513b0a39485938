import { type ScanFunction, wasmScan } from './scan-wasm.js';
import { Wasm, type WasmMemory } from './webassembly.js';

/** One hit of a vector search. */
export interface VectorHit {
  recordId: string;
  /** Cosine similarity with the query, in [-1, 1] (int8 precision: ±0.01). */
  score: number;
}

const QUERY_BYTES = 1 << 14; // room for an int16 query of up to 8192 dimensions
const PAGE = 65536;
const QUERY_SCALE = 16383; // keeps every i32 sum of the scan below 2^31

/**
 * An exact in-memory index of one namespace's vectors for one model: each vector is
 * stored as int8 with its own scale (a quarter of float32's memory), and a search scans
 * every vector with a WebAssembly SIMD loop. Appends are cheap; a removal rebuilds.
 * Backends use it to answer `searchVectors`; it is not tied to SQLite.
 */
export class VectorIndex {
  readonly dimension: number;
  /** Dimension rounded up to 16 (the SIMD width), zero-padded. */
  readonly #stride: number;
  #ids: string[] = [];
  #scales = new Float32Array(64);
  #memory: WasmMemory;
  #scan: ScanFunction | undefined;
  #capacity = 0;

  constructor(dimension: number) {
    this.dimension = dimension;
    this.#stride = Math.ceil(dimension / 16) * 16;
    this.#memory = new Wasm.Memory({ initial: 1 });
    this.#scan = wasmScan(this.#memory);
    this.#reserve(64);
  }

  /** How many vectors it holds. */
  get size(): number {
    return this.#ids.length;
  }

  /** Bytes of memory it holds (vectors, scales, scratch). */
  get bytes(): number {
    return this.#memory.buffer.byteLength + this.#scales.byteLength;
  }

  /** Adds a vector (of `dimension` floats; any length is normalised away by the scale). */
  add(recordId: string, vector: Float32Array): void {
    if (vector.length !== this.dimension) return;
    const n = this.#ids.length;
    this.#reserve(n + 1);
    let max = 0;
    for (const x of vector) max = Math.max(max, Math.abs(x));
    let norm = 0;
    for (const x of vector) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    const scale = max > 0 ? 127 / max : 1;
    const row = new Int8Array(this.#memory.buffer, QUERY_BYTES + n * this.#stride, this.#stride);
    for (let d = 0; d < this.dimension; d++) row[d] = Math.round(vector[d]! * scale);
    // Stored value × this = the unit vector's component.
    this.#scales[n] = 1 / (scale * norm);
    this.#ids.push(recordId);
  }

  /** The `limit` nearest vectors by cosine, best first (ties: later-added first). */
  search(query: Float32Array, limit: number): VectorHit[] {
    const n = this.#ids.length;
    if (n === 0 || limit <= 0 || query.length !== this.dimension) return [];
    let max = 0;
    for (const x of query) max = Math.max(max, Math.abs(x));
    let norm = 0;
    for (const x of query) norm += x * x;
    norm = Math.sqrt(norm);
    if (max === 0) return [];
    const qScale = QUERY_SCALE / max;
    const q = new Int16Array(this.#memory.buffer, 0, this.#stride);
    q.fill(0);
    for (let d = 0; d < this.dimension; d++) q[d] = Math.round(query[d]! * qScale);
    const rows = QUERY_BYTES;
    const outOffset = rows + this.#capacity * this.#stride;
    const sums = this.#dots(q, rows, n, outOffset);
    const factor = 1 / (qScale * norm);
    // Keep the best `limit` in a small sorted array (limit is tens, n is up to millions).
    const k = Math.min(limit, n);
    const best: number[] = [];
    const scores: number[] = [];
    let floor = Number.NEGATIVE_INFINITY;
    for (let i = n - 1; i >= 0; i--) {
      const score = sums[i]! * this.#scales[i]! * factor;
      if (best.length === k && score <= floor) continue;
      let at = scores.length;
      while (at > 0 && scores[at - 1]! < score) at--;
      scores.splice(at, 0, score);
      best.splice(at, 0, i);
      if (best.length > k) {
        scores.pop();
        best.pop();
      }
      if (best.length === k) floor = scores[k - 1]!;
    }
    return best.map((i, j) => ({ recordId: this.#ids[i]!, score: scores[j]! }));
  }

  #dots(q: Int16Array, rows: number, n: number, outOffset: number): Int32Array {
    const needed = outOffset + n * 4;
    if (needed > this.#memory.buffer.byteLength) {
      this.#memory.grow(Math.ceil((needed - this.#memory.buffer.byteLength) / PAGE));
    }
    if (this.#scan) {
      this.#scan(0, rows, n, this.#stride, outOffset);
      return new Int32Array(this.#memory.buffer, outOffset, n);
    }
    // No WebAssembly SIMD here: the same sums in JavaScript.
    const data = new Int8Array(this.#memory.buffer, rows, n * this.#stride);
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      const base = i * this.#stride;
      for (let d = 0; d < this.dimension; d++) sum += q[d]! * data[base + d]!;
      out[i] = sum;
    }
    return out;
  }

  /** Grows the vector area to hold `count` rows (doubling; the scratch after it moves). */
  #reserve(count: number): void {
    if (count <= this.#capacity) return;
    const capacity = Math.max(count, this.#capacity * 2, 64);
    const needed = QUERY_BYTES + capacity * (this.#stride + 4);
    const have = this.#memory.buffer.byteLength;
    if (needed > have) this.#memory.grow(Math.ceil((needed - have) / PAGE));
    const scales = new Float32Array(capacity);
    scales.set(this.#scales.subarray(0, this.#ids.length));
    this.#scales = scales;
    this.#capacity = capacity;
  }
}
