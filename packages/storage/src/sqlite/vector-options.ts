/**
 * Options of the in-memory vector cache behind `searchVectors`. In a file of its own: the
 * public types must not reach the modules typed with better-sqlite3 (whose types are not
 * a dependency of this package), or a consumer's strict type check fails.
 */
export interface VectorCacheOptions {
  /** Most vectors kept in memory over all namespaces; the least recently searched go first. */
  maxCachedVectors?: number;
}
