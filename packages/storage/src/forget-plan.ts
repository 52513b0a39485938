import type { ForgetCounts } from './backend.js';

/**
 * Per table, which rows a forget or prune touches (undefined: none of that table), the
 * same on both backends; `W` is a backend's WHERE clause (SQLite text with parameters,
 * PostgreSQL a kysely `sql` fragment).
 */
export interface ForgetPlan<W> {
  records?: W;
  events?: W;
  pending?: W;
  retrievals?: W;
  extractions?: W;
  /** Kept copies of teammates' records (team_record_copies). */
  copies?: W;
}

/** One table's share of a plan: the counter it adds to, the table, the rows. */
export type ForgetStep<W> = [counter: keyof ForgetCounts, table: string, where: W];

/**
 * Tables in the order their rows must go: buffer entries first, then records, then events
 * (buffer entries reference their event). Deleting the buffer entries first is what makes
 * a forget atomic with an extraction of the same events on PostgreSQL, where both run at
 * once: an extraction's commit deletes its batch's entries and stores its records in one
 * transaction, so the forget's delete of those entries either waits for that commit (and
 * the records' delete, a later statement, then sees its records) or goes first (and the
 * commit then finds its entries gone and stores nothing, `stale_batch`). SQLite has one
 * writer, so there the order only has to put events last.
 */
export function forgetSteps<W>(plan: ForgetPlan<W>): Array<ForgetStep<W>> {
  const out: Array<ForgetStep<W>> = [];
  if (plan.pending) out.push(['pending', 'pending', plan.pending]);
  // Entries parked past a project's ceiling are pending too (migration 0004).
  if (plan.pending) out.push(['pending', 'parked', plan.pending]);
  if (plan.records) out.push(['records', 'memory_records', plan.records]);
  if (plan.retrievals) out.push(['logs', 'retrieval_log', plan.retrievals]);
  if (plan.extractions) out.push(['logs', 'extraction_log', plan.extractions]);
  if (plan.events) out.push(['events', 'events', plan.events]);
  if (plan.copies) out.push(['records', 'team_record_copies', plan.copies]);
  return out;
}

/** Counts of nothing forgotten. */
export const noneForgotten = (): ForgetCounts => ({ events: 0, records: 0, pending: 0, logs: 0 });
