/**
 * Mean of the token vectors the attention mask keeps, then L2-normalised: what
 * sentence-transformers does for all-MiniLM-L6-v2. `hidden` is [tokens × dim], row-major.
 */
export function meanPool(
  hidden: Float32Array,
  tokens: number,
  dim: number,
  mask: ArrayLike<number | bigint>,
): Float32Array {
  const out = new Float32Array(dim);
  let kept = 0;
  for (let t = 0; t < tokens; t++) {
    if (Number(mask[t]) === 0) continue;
    kept++;
    const row = t * dim;
    for (let d = 0; d < dim; d++) out[d]! += hidden[row + d]!;
  }
  if (kept > 0) for (let d = 0; d < dim; d++) out[d]! /= kept;
  return normalize(out);
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let d = 0; d < vector.length; d++) vector[d]! /= norm;
  return vector;
}

/** Dot product; for unit vectors, the cosine similarity. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
