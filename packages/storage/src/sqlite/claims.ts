import type { ClaimStore } from '../backend.js';
import type { SqliteContext } from './context.js';

/**
 * Extraction claims. One process owns a SQLite file (the collector's data-dir lock), so
 * claims live in memory: per namespace, the owner and until when.
 */
export function sqliteClaims(ctx: SqliteContext): ClaimStore {
  const claims = new Map<string, { owner: string; until: number }>();
  return {
    async claimExtraction(namespace, owner, ttlMs) {
      ctx.ensureOpen();
      const claim = claims.get(namespace);
      if (claim && claim.owner !== owner && claim.until > Date.now()) return false;
      claims.set(namespace, { owner, until: Date.now() + ttlMs });
      return true;
    },

    async releaseExtraction(namespace, owner) {
      ctx.ensureOpen();
      if (claims.get(namespace)?.owner === owner) claims.delete(namespace);
    },
  };
}
