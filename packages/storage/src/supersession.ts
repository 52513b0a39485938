import type { MemoryRecord } from '@kiro-learn/schema';
import { StorageError } from './errors.js';

/**
 * A record's questions and its supersession link, as both backends store them (columns
 * of migration 0011 on SQLite, 0010 on PostgreSQL), and the rules every link obeys.
 */

/** The stored columns (questions as a JSON list, `[]` when there are none). */
export interface SupersessionColumns {
  questions: string;
  superseded_by: string | null;
  superseded_at: string | null;
  superseded_reason: string | null;
}

/** A record's questions and supersession, as columns (both backends). */
export function supersessionColumns(record: MemoryRecord): SupersessionColumns {
  return {
    questions: JSON.stringify(record.questions ?? []),
    superseded_by: record.superseded_by ?? null,
    superseded_at: record.superseded_by === undefined ? null : (record.superseded_at ?? null),
    superseded_reason:
      record.superseded_by === undefined ? null : (record.superseded_reason ?? null),
  };
}

/**
 * The record fields of those columns: none that is empty, so a record stored without
 * questions or a supersession reads back exactly as it was written.
 */
export function recordSupersession(
  row: SupersessionColumns,
): Pick<MemoryRecord, 'questions' | 'superseded_by' | 'superseded_at' | 'superseded_reason'> {
  const questions = JSON.parse(row.questions) as string[];
  return {
    ...(questions.length > 0 ? { questions } : {}),
    ...(row.superseded_by !== null ? { superseded_by: row.superseded_by } : {}),
    ...(row.superseded_by !== null && row.superseded_at !== null
      ? { superseded_at: row.superseded_at }
      : {}),
    ...(row.superseded_by !== null && row.superseded_reason !== null
      ? { superseded_reason: row.superseded_reason }
      : {}),
  };
}

/** The fields of a record a supersession check needs. */
export type LinkEnd = Pick<MemoryRecord, 'record_id' | 'namespace'>;

/** How far a chain is followed before it is taken as a cycle (chains are short). */
export const MAX_CHAIN = 10_000;

/**
 * Checks a link before it is stored: two different records of one namespace, and no
 * cycle: `successors` (the records that superseded the newer one, in order, as
 * `superseded_by` leads from it) must not hold the older.
 */
export function checkLink(older: LinkEnd, newer: LinkEnd, successors: readonly string[]): void {
  if (older.record_id === newer.record_id) {
    throw new StorageError('invalid_link', `record ${older.record_id} cannot supersede itself`);
  }
  if (older.namespace !== newer.namespace) {
    throw new StorageError(
      'invalid_link',
      `record ${newer.record_id} is in another project than ${older.record_id}: a record only supersedes records of its own project`,
    );
  }
  if (successors.includes(older.record_id)) {
    throw new StorageError(
      'invalid_link',
      `record ${older.record_id} already supersedes ${newer.record_id} (directly or through others): the link would close a cycle`,
    );
  }
}

/** Follows `superseded_by` from a record (not included), stopping at a repeat. */
export function followChain(
  start: string,
  successorOf: (recordId: string) => string | null | undefined,
): string[] {
  const chain: string[] = [];
  const seen = new Set([start]);
  let next = successorOf(start);
  while (next != null && !seen.has(next) && chain.length < MAX_CHAIN) {
    chain.push(next);
    seen.add(next);
    next = successorOf(next);
  }
  return chain;
}
