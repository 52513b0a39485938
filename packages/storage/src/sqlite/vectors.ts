import type Database from 'better-sqlite3';
import type {
  MissingVectorsOptions,
  MissingVectorsPage,
  RecordVector,
  VectorCoverage,
  VectorSearchOptions,
  VectorStore,
} from '../backend.js';
import { StorageError } from '../errors.js';
import { type VectorHit, VectorIndex } from '../vectors/vector-index.js';
import type { SqliteContext } from './context.js';
import { recordFromRow } from './rows.js';
import type { RecordRow } from './tables.js';
import type { VectorCacheOptions } from './vector-options.js';

interface Cached {
  index: VectorIndex;
  /** Highest `seq` loaded. */
  seq: number;
  /** The namespace's deletion generation when loaded. */
  generation: number;
  /** For least-recently-used eviction. */
  usedAt: number;
}

const DEFAULT_MAX_CACHED_VECTORS = 4_000_000;

/**
 * Record vectors of the SQLite backend: rows in `record_vectors`, searched through one
 * in-memory VectorIndex per (namespace, model), loaded on the first search and brought up
 * to date before every search (new rows by `seq`; any deletion, seen through
 * `vector_generations`, reloads the namespace). Checking costs two indexed lookups, so
 * writes by other processes (a `reindex`, a `forget`) are seen too.
 */
export class SqliteVectors {
  readonly #sqlite: Database.Database;
  readonly #cache = new Map<string, Cached>();
  readonly #maxCached: number;
  #clock = 0;
  readonly #s: Record<
    'insert' | 'generation' | 'since' | 'coverage' | 'coverageAll' | 'deleteExcept',
    Database.Statement
  >;

  constructor(sqlite: Database.Database, options: VectorCacheOptions = {}) {
    this.#sqlite = sqlite;
    this.#maxCached = options.maxCachedVectors ?? DEFAULT_MAX_CACHED_VECTORS;
    this.#s = {
      insert: sqlite.prepare(
        `INSERT INTO record_vectors (record_id, namespace, model_id, dim, vector)
         SELECT record_id, namespace, ?, ?, ? FROM memory_records WHERE record_id = ?
         ON CONFLICT (record_id, model_id) DO NOTHING`,
      ),
      generation: sqlite
        .prepare('SELECT generation FROM vector_generations WHERE namespace = ?')
        .pluck(),
      since: sqlite.prepare(
        `SELECT seq, record_id, vector FROM record_vectors
         WHERE namespace = ? AND model_id = ? AND seq > ? ORDER BY seq`,
      ),
      coverage: sqlite.prepare(
        `SELECT (SELECT memories FROM namespace_counts WHERE namespace = @ns) AS records,
           (SELECT count(*) FROM record_vectors WHERE namespace = @ns AND model_id = @model) AS withVector`,
      ),
      coverageAll: sqlite.prepare(
        `SELECT (SELECT coalesce(sum(memories), 0) FROM namespace_counts) AS records,
           (SELECT count(*) FROM record_vectors WHERE model_id = @model) AS withVector`,
      ),
      deleteExcept: sqlite.prepare('DELETE FROM record_vectors WHERE model_id <> ?'),
    };
  }

  /** The write of `putVectors` (runs inside the backend's write transaction). */
  put(modelId: string, vectors: readonly RecordVector[]): number {
    let stored = 0;
    for (const { recordId, vector } of vectors) {
      const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
      stored += this.#s.insert.run(modelId, vector.length, blob, recordId).changes;
    }
    return stored;
  }

  deleteExcept(modelId: string): number {
    return this.#s.deleteExcept.run(modelId).changes;
  }

  search(query: VectorSearchOptions): VectorHit[] {
    if (typeof query.namespace !== 'string') {
      throw new StorageError('invalid_query', 'a vector search needs a namespace');
    }
    const index = this.#fresh(query.namespace, query.modelId);
    return index ? index.search(query.vector, query.limit) : [];
  }

  #fresh(namespace: string, modelId: string): VectorIndex | undefined {
    const key = `${namespace}\u0000${modelId}`;
    const generation = Number(this.#s.generation.get(namespace) ?? 0);
    let cached = this.#cache.get(key);
    if (cached && cached.generation !== generation) {
      this.#cache.delete(key);
      cached = undefined;
    }
    // Streamed, one reused scratch vector: loading 100 000 rows at once left ~300 MB of
    // row buffers and copies behind for the collector to carry.
    const rows = this.#s.since.iterate(namespace, modelId, cached?.seq ?? 0) as IterableIterator<{
      seq: number;
      record_id: string;
      vector: Buffer;
    }>;
    let scratch = new Float32Array(0);
    for (const row of rows) {
      if (!cached) {
        cached = {
          index: new VectorIndex(row.vector.byteLength / 4),
          seq: 0,
          generation,
          usedAt: 0,
        };
        this.#cache.set(key, cached);
      }
      if (scratch.byteLength !== row.vector.byteLength) {
        scratch = new Float32Array(row.vector.byteLength / 4);
      }
      new Uint8Array(scratch.buffer).set(row.vector);
      cached.index.add(row.record_id, scratch);
      cached.seq = row.seq;
    }
    if (!cached) return undefined;
    cached.usedAt = ++this.#clock;
    this.#evict(key);
    return cached.index;
  }

  /** Drops least recently searched namespaces while over the cap (never `keep`). */
  #evict(keep: string): void {
    let total = 0;
    for (const cached of this.#cache.values()) total += cached.index.size;
    while (total > this.#maxCached && this.#cache.size > 1) {
      let oldest: [string, Cached] | undefined;
      for (const entry of this.#cache) {
        if (entry[0] !== keep && (!oldest || entry[1].usedAt < oldest[1].usedAt)) oldest = entry;
      }
      if (!oldest) return;
      this.#cache.delete(oldest[0]);
      total -= oldest[1].index.size;
    }
  }

  missing(query: MissingVectorsOptions): MissingVectorsPage {
    const after = query.cursor === undefined ? Number.MAX_SAFE_INTEGER : Number(query.cursor);
    if (!Number.isSafeInteger(after)) throw new StorageError('invalid_cursor', 'invalid cursor');
    // Walk by rid (newest first) so a page never rescans what earlier pages passed.
    const scan = Math.max(query.limit * 4, 256);
    const rows = this.#sqlite
      .prepare(
        `SELECT r.*, EXISTS (SELECT 1 FROM record_vectors v
             WHERE v.record_id = r.record_id AND v.model_id = @model) AS has_vector
         FROM memory_records r
         WHERE r.rid < @after ${query.namespace !== undefined ? 'AND r.namespace = @ns' : ''}
         ORDER BY r.rid DESC LIMIT @scan`,
      )
      .all({
        model: query.modelId,
        after,
        scan,
        ...(query.namespace !== undefined ? { ns: query.namespace } : {}),
      }) as Array<RecordRow & { has_vector: number }>;
    const records = [];
    let last: number | undefined;
    for (const { has_vector, ...row } of rows) {
      last = row.rid!;
      if (has_vector) continue;
      records.push(recordFromRow(row));
      if (records.length === query.limit) break;
    }
    const more = rows.length === scan || records.length === query.limit;
    return { records, ...(more && last !== undefined ? { nextCursor: String(last) } : {}) };
  }

  coverage(modelId: string, namespace?: string): VectorCoverage {
    const row = (
      namespace === undefined
        ? this.#s.coverageAll.get({ model: modelId })
        : this.#s.coverage.get({ ns: namespace, model: modelId })
    ) as { records: number | null; withVector: number };
    return { records: Number(row.records ?? 0), withVector: Number(row.withVector) };
  }
}

/** The vector methods of the backend: writes through the batcher, searches in memory. */
export function sqliteVectors(
  ctx: SqliteContext,
  options: VectorCacheOptions | undefined,
): VectorStore {
  const vectors = new SqliteVectors(ctx.sqlite, options);
  const { writes } = ctx;
  return {
    async putVectors(modelId, list) {
      ctx.ensureOpen();
      if (list.length === 0) return 0;
      return writes.enqueue(() => vectors.put(modelId, list));
    },

    async searchVectors(query) {
      ctx.ensureOpen();
      return vectors.search(query);
    },

    async recordsWithoutVector(query) {
      ctx.ensureOpen();
      return vectors.missing(query);
    },

    async vectorCoverage(modelId, namespace) {
      ctx.ensureOpen();
      return vectors.coverage(modelId, namespace);
    },

    async deleteVectorsExcept(modelId) {
      ctx.ensureOpen();
      return writes.enqueue(() => vectors.deleteExcept(modelId));
    },
  };
}
