import { sql } from 'kysely';
import type { ClaimStore } from '../backend.js';
import { hasNul, type PgContext } from './context.js';

/**
 * Extraction claims: one row per namespace naming the collector that extracts it and
 * until when. Taking or extending a claim is one upsert that succeeds only when the row
 * is the caller's own or has run out, so concurrent claimants get exactly one winner.
 */
export function pgClaims(ctx: PgContext): ClaimStore {
  const { db } = ctx;
  return {
    async claimExtraction(namespace, owner, ttlMs) {
      ctx.ensureOpen();
      if (hasNul(namespace) || hasNul(owner)) return false;
      const { rows } = await sql<{ owner: string }>`
        INSERT INTO extraction_claims AS c (namespace, owner, expires_at)
        VALUES (${namespace}, ${owner}, now() + make_interval(secs => ${Math.max(0, ttlMs) / 1000}))
        ON CONFLICT (namespace) DO UPDATE
          SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
          WHERE c.owner = EXCLUDED.owner OR c.expires_at <= now()
        RETURNING owner`.execute(db);
      return rows.length === 1;
    },

    async releaseExtraction(namespace, owner) {
      ctx.ensureOpen();
      if (hasNul(namespace) || hasNul(owner)) return;
      await db
        .deleteFrom('extraction_claims')
        .where('namespace', '=', namespace)
        .where('owner', '=', owner)
        .execute();
    },
  };
}
