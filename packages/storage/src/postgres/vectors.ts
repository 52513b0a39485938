import type { MemoryRecord } from '@kiro-learn/schema';
import { sql } from 'kysely';
import type { VectorStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { VectorIndex } from '../vectors/vector-index.js';
import { hasNul, type PgContext } from './context.js';
import { pgRecordFromRow, recordColumns } from './rows.js';
import type { PgRecordRow } from './tables.js';

interface Cached {
  index: VectorIndex;
  seq: number;
  generation: number;
}

/**
 * Record vectors on PostgreSQL, searched like SQLite's: one in-memory VectorIndex per
 * (namespace, model) in this process, brought up to date before each search from
 * `record_vectors` (new rows by `seq`) and `vector_generations` (any deletion reloads),
 * so other collectors' writes and deletes are seen.
 */
export function pgVectors(ctx: PgContext): VectorStore {
  const { db } = ctx;
  const cache = new Map<string, Cached>();

  async function fresh(namespace: string, modelId: string): Promise<VectorIndex | undefined> {
    const key = `${namespace}\u0000${modelId}`;
    const { rows: gen } = await sql<{ generation: string }>`
      SELECT generation FROM vector_generations WHERE namespace = ${namespace}`.execute(db);
    const generation = Number(gen[0]?.generation ?? 0);
    let cached = cache.get(key);
    if (cached && cached.generation !== generation) {
      cache.delete(key);
      cached = undefined;
    }
    const { rows } = await sql<{ seq: string; record_id: string; vector: Buffer }>`
      SELECT seq, record_id, vector FROM record_vectors
      WHERE namespace = ${namespace} AND model_id = ${modelId} AND seq > ${cached?.seq ?? 0}
      ORDER BY seq`.execute(db);
    if (!cached) {
      if (rows.length === 0) return undefined;
      cached = { index: new VectorIndex(rows[0]!.vector.byteLength / 4), seq: 0, generation };
      cache.set(key, cached);
    }
    // One reused scratch vector (the index keeps its own int8 copy), not a copy per row.
    let scratch = new Float32Array(0);
    for (const row of rows) {
      if (scratch.byteLength !== row.vector.byteLength) {
        scratch = new Float32Array(row.vector.byteLength / 4);
      }
      new Uint8Array(scratch.buffer).set(row.vector);
      cached.index.add(row.record_id, scratch);
      cached.seq = Number(row.seq);
    }
    return cached.index;
  }

  return {
    async putVectors(modelId, vectors) {
      ctx.ensureOpen();
      let stored = 0;
      for (const { recordId, vector } of vectors) {
        if (hasNul(recordId)) continue;
        const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
        const result = await sql`
          INSERT INTO record_vectors (record_id, namespace, model_id, dim, vector)
          SELECT record_id, namespace, ${modelId}, ${vector.length}, ${blob}
          FROM memory_records WHERE record_id = ${recordId}
          ON CONFLICT (record_id, model_id) DO NOTHING`.execute(db);
        stored += Number(result.numAffectedRows ?? 0);
      }
      return stored;
    },

    async searchVectors(query) {
      ctx.ensureOpen();
      if (typeof query.namespace !== 'string') {
        throw new StorageError('invalid_query', 'a vector search needs a namespace');
      }
      if (hasNul(query.namespace) || hasNul(query.modelId)) return [];
      const index = await fresh(query.namespace, query.modelId);
      return index ? index.search(query.vector, query.limit) : [];
    },

    async recordsWithoutVector(query) {
      ctx.ensureOpen();
      let after: [string, string] | undefined;
      if (query.cursor !== undefined) {
        try {
          after = JSON.parse(query.cursor) as [string, string];
        } catch {
          throw new StorageError('invalid_cursor', 'invalid cursor');
        }
        if (!Array.isArray(after) || after.length !== 2) {
          throw new StorageError('invalid_cursor', 'invalid cursor');
        }
      }
      const { rows } = await sql<PgRecordRow>`
        SELECT ${recordColumns('r')} FROM memory_records r
        WHERE NOT EXISTS (SELECT 1 FROM record_vectors v
            WHERE v.record_id = r.record_id AND v.model_id = ${query.modelId})
          ${query.namespace !== undefined ? sql`AND r.namespace = ${query.namespace}` : sql``}
          ${after ? sql`AND (r.created_at, r.record_id) < (${after[0]}, ${after[1]})` : sql``}
        ORDER BY r.created_at DESC, r.record_id DESC LIMIT ${query.limit}`.execute(db);
      const records: MemoryRecord[] = rows.map(pgRecordFromRow);
      const last = records.at(-1);
      return {
        records,
        ...(records.length === query.limit && last
          ? { nextCursor: JSON.stringify([last.created_at, last.record_id]) }
          : {}),
      };
    },

    async vectorCoverage(modelId, namespace) {
      ctx.ensureOpen();
      const { rows } = await sql<{ records: string | null; with_vector: string }>`
        SELECT
          (SELECT coalesce(sum(memories), 0) FROM namespace_counts
            ${namespace !== undefined ? sql`WHERE namespace = ${namespace}` : sql``}) AS records,
          (SELECT count(*) FROM record_vectors WHERE model_id = ${modelId}
            ${namespace !== undefined ? sql`AND namespace = ${namespace}` : sql``}) AS with_vector`.execute(
        db,
      );
      return {
        records: Number(rows[0]?.records ?? 0),
        withVector: Number(rows[0]?.with_vector ?? 0),
      };
    },

    async deleteVectorsExcept(modelId) {
      ctx.ensureOpen();
      const result = await sql`DELETE FROM record_vectors WHERE model_id <> ${modelId}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}
