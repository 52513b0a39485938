import { sql } from 'kysely';
import type { StatsStore } from '../backend.js';
import { statsFromCounters } from '../portable.js';
import { hasNul, type PgContext } from './context.js';

/**
 * Totals from the trigger-kept counters, and the schema's size on disk. The counter
 * tables hold deltas (migration 0008, folded by counters.ts): every read sums a key's rows.
 */
export function pgStats(ctx: PgContext): StatsStore {
  const { db } = ctx;
  return {
    async stats(namespace) {
      ctx.ensureOpen();
      const ns = namespace !== undefined && hasNul(namespace) ? '' : namespace;
      let projectsQ = db
        .selectFrom('namespace_counts')
        .select((eb) => [
          'namespace',
          eb.fn.sum<string>('events').as('events'),
          eb.fn.sum<string>('memories').as('memories'),
          eb.fn.max('last_event_at').as('last_event_at'),
        ])
        .groupBy('namespace')
        .having((eb) =>
          eb.or([eb(eb.fn.sum('events'), '<>', 0), eb(eb.fn.sum('memories'), '<>', 0)]),
        );
      if (ns !== undefined) projectsQ = projectsQ.where('namespace', '=', ns);
      return statsFromCounters(db, ns, projectsQ.orderBy('namespace').execute());
    },

    async sizeBytes() {
      ctx.ensureOpen();
      const { rows } = await sql<{ bytes: string | null }>`
        SELECT sum(pg_total_relation_size(c.oid)) AS bytes
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')`.execute(db);
      return Number(rows[0]?.bytes ?? 0);
    },
  };
}
