/**
 * Reads both backends build the same way through kysely: the same tables and columns on
 * SQLite and PostgreSQL, typed loosely enough for either (PostgreSQL returns bigint sums
 * as strings). Each backend's aggregate module calls these instead of keeping its own copy.
 */
import type { Event } from '@kiro-learn/schema';
import type { Kysely, Selectable } from 'kysely';
import type {
  EventPage,
  ExtractionLogEntry,
  ListEventsOptions,
  ListRecordsOptions,
  LogQuery,
  Member,
  PendingEntry,
  PendingSummary,
  RecordPage,
  RetrievalLogEntry,
  StorageStats,
} from './backend.js';
import { compileOnce, type RunCompiled, runWithKysely } from './compile-once.js';
import { StorageError } from './errors.js';
import { memberOfRow, RECORD_COLUMNS, recordOfColumns } from './rows.js';
import type { SharedTables } from './tables.js';

type Count = number | string;

/** The tables these reads use, typed loosely enough for either dialect. */
export type PortableTables = SharedTables<{
  big: Count;
  serial: Count | undefined;
  flag: boolean | number;
}>;

/** SQLite's 0/1 and PostgreSQL's boolean, as a boolean. */
const flag = (value: boolean | number): boolean => value === true || value === 1;

/** An event's JSON text exactly as stored, or undefined. */
export async function eventJson(
  db: Kysely<PortableTables>,
  eventId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('events')
    .select('json')
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row?.json;
}

/** A stored event's JSON text as the event (both backends store it as sent), or undefined. */
export const eventOfJson = (json: string | undefined): Event | undefined =>
  json === undefined ? undefined : (JSON.parse(json) as Event);

/**
 * A page of events, newest first by arrival. A cursor is the last seq of the page before;
 * `seqBound` turns it into the backend's bound (SQLite a number, PostgreSQL bigint text).
 * Compiled once per shape; `run` executes it (SQLite: synchronously).
 */
export async function listEventPage(
  db: Kysely<PortableTables>,
  query: ListEventsOptions,
  seqBound: (cursor: string) => Count,
  run: RunCompiled = runWithKysely(db),
): Promise<EventPage> {
  const { cursor } = query;
  if (cursor !== undefined && !/^\d+$/.test(cursor)) {
    throw new StorageError('invalid_cursor', 'invalid cursor');
  }
  const values = {
    namespace: query.namespace,
    sessionId: query.sessionId,
    kind: query.kind,
    before: cursor === undefined ? undefined : seqBound(cursor),
    limit: query.limit + 1,
  };
  const rows = await run(
    compileOnce(db, 'listEventPage', values, (v) => {
      let q = db.selectFrom('events').select(['seq', 'json']);
      if (values.namespace !== undefined) q = q.where('namespace', '=', v.namespace);
      if (values.sessionId !== undefined) q = q.where('session_id', '=', v.sessionId);
      if (values.kind !== undefined) q = q.where('kind', '=', v.kind);
      if (values.before !== undefined) q = q.where('seq', '<', v.before);
      return q.orderBy('seq', 'desc').limit(v.limit);
    }),
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => JSON.parse(row.json) as Event),
    ...(rows.length > query.limit && last ? { nextCursor: String(last.seq) } : {}),
  };
}

/** A team server's members, by team then name. */
export async function listMemberRows(db: Kysely<PortableTables>): Promise<Member[]> {
  const rows = await db
    .selectFrom('members')
    .select(['name', 'team', 'role', 'created_at'])
    .orderBy('team')
    .orderBy('name')
    .execute();
  return rows.map(memberOfRow);
}

/** The member a token hash belongs to, or undefined. */
export async function findMemberRow(
  db: Kysely<PortableTables>,
  tokenHash: string,
): Promise<Member | undefined> {
  const row = await db
    .selectFrom('members')
    .select(['name', 'team', 'role', 'created_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && memberOfRow(row);
}

/** The retrieval log, newest first (by time when bounded by time); compiled once per shape. */
export async function listRetrievalEntries(
  db: Kysely<PortableTables>,
  query: LogQuery & { sessionId?: string; since?: string },
  run: RunCompiled = runWithKysely(db),
): Promise<RetrievalLogEntry[]> {
  const values = {
    namespace: query.namespace,
    sessionId: query.sessionId,
    // Whole ids: PostgreSQL compares a bigint, which a fraction cannot be.
    afterId: query.afterId === undefined ? undefined : Math.trunc(query.afterId),
    since: query.since,
    limit: query.limit,
  };
  const rows = await run(
    compileOnce(db, 'listRetrievalEntries', values, (v) => {
      let q = db.selectFrom('retrieval_log').selectAll();
      if (values.namespace !== undefined) q = q.where('namespace', '=', v.namespace);
      if (values.sessionId !== undefined) q = q.where('session_id', '=', v.sessionId);
      if (values.afterId !== undefined) q = q.where('id', '>', v.afterId);
      // By time, when bounded by time: the created_at index then reads only that range.
      if (values.since !== undefined) {
        q = q.where('created_at', '>=', v.since).orderBy('created_at', 'desc');
      }
      return q.orderBy('id', 'desc').limit(v.limit);
    }),
  );
  return rows.map(retrievalEntryOfRow);
}

/** A retrieval log row as an entry. */
export function retrievalEntryOfRow(
  row: Selectable<PortableTables['retrieval_log']>,
): RetrievalLogEntry {
  return {
    id: Number(row.id),
    namespace: row.namespace,
    ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
    ...(row.event_id !== null ? { eventId: row.event_id } : {}),
    query: row.query,
    recordIds: JSON.parse(row.record_ids) as string[],
    scores: JSON.parse(row.scores) as number[],
    latencyMs: row.latency_ms,
    timedOut: flag(row.timed_out),
    budgetCut: flag(row.budget_cut),
    ...(row.error !== null ? { error: row.error } : {}),
    createdAt: row.created_at,
  };
}

/** The extraction log, newest first. */
export async function listExtractionEntries(
  db: Kysely<PortableTables>,
  query: LogQuery,
): Promise<ExtractionLogEntry[]> {
  let q = db.selectFrom('extraction_log').selectAll();
  if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
  if (query.afterId !== undefined) q = q.where('id', '>', Math.trunc(query.afterId));
  const rows = await q.orderBy('id', 'desc').limit(query.limit).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    namespace: row.namespace,
    extractor: row.extractor,
    status: row.status as ExtractionLogEntry['status'],
    batchSize: row.batch_size,
    records: row.records,
    attempts: row.attempts,
    durationMs: row.duration_ms,
    ...(row.error !== null ? { error: row.error } : {}),
    startedAt: row.started_at,
  }));
}

/** A namespace's pending entries, oldest first. */
export async function listPendingEntries(
  db: Kysely<PortableTables>,
  namespace: string,
  limit = 1_000_000,
): Promise<PendingEntry[]> {
  const rows = await db
    .selectFrom('pending')
    .select(['namespace', 'event_id', 'bytes', 'appended_at'])
    .where('namespace', '=', namespace)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    namespace: row.namespace,
    eventId: row.event_id,
    bytes: row.bytes,
    appendedAt: row.appended_at,
  }));
}

/** Count, bytes and age of the pending entries, per namespace. */
export async function summarisePending(db: Kysely<PortableTables>): Promise<PendingSummary[]> {
  const rows = await db
    .selectFrom('pending')
    .select((eb) => [
      'namespace',
      eb.fn.countAll<Count>().as('count'),
      eb.fn.sum<Count>('bytes').as('bytes'),
      eb.fn.min<string>('appended_at').as('oldest'),
      eb.fn.max<string>('appended_at').as('newest'),
    ])
    .groupBy('namespace')
    .orderBy('namespace')
    .execute();
  return rows.map((row) => ({
    namespace: row.namespace,
    count: Number(row.count),
    bytes: Number(row.bytes),
    oldestAt: row.oldest,
    newestAt: row.newest,
  }));
}

/** Count and bytes of the parked entries, per namespace. */
export async function summariseParked(
  db: Kysely<PortableTables>,
): Promise<Array<{ namespace: string; count: number; bytes: number }>> {
  const rows = await db
    .selectFrom('parked')
    .select((eb) => [
      'namespace',
      eb.fn.countAll<Count>().as('count'),
      eb.fn.sum<Count>('bytes').as('bytes'),
    ])
    .groupBy('namespace')
    .orderBy('namespace')
    .execute();
  return rows.map((row) => ({
    namespace: row.namespace,
    count: Number(row.count),
    bytes: Number(row.bytes),
  }));
}

/** The records a listing's filters keep (exact namespace; `current`: nothing superseded them). */
function recordsWhere(db: Kysely<PortableTables>, query: ListRecordsOptions) {
  let q = db.selectFrom('memory_records');
  if (query.current === true) q = q.where('superseded_by', 'is', null);
  if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
  if (query.observationType !== undefined) {
    q = q.where('observation_type', '=', query.observationType);
  }
  if (query.strategy !== undefined) q = q.where('strategy', '=', query.strategy);
  if (query.since !== undefined) q = q.where('created_at', '>=', query.since);
  if (query.until !== undefined) q = q.where('created_at', '<', query.until);
  return q;
}

/** A page of records, newest first (by `created_at`, then id), with the listing's total. */
export async function listRecordPage(
  db: Kysely<PortableTables>,
  query: ListRecordsOptions,
): Promise<RecordPage> {
  const [rows, total] = await Promise.all([
    recordsWhere(db, query)
      .select(RECORD_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('record_id', 'desc')
      .limit(query.limit)
      .offset(query.offset ?? 0)
      .execute(),
    query.count === false ? -1 : countRecords(db, query),
  ]);
  return { items: rows.map(recordOfColumns), total };
}

/**
 * The total of a record listing: from the trigger-kept counters when only namespace and
 * type filter it (no scan), else counted.
 */
export async function countRecords(
  db: Kysely<PortableTables>,
  query: ListRecordsOptions,
): Promise<number> {
  const filtered =
    query.strategy !== undefined ||
    query.since !== undefined ||
    query.until !== undefined ||
    query.current === true;
  if (!filtered && query.observationType !== undefined) {
    let q = db.selectFrom('type_counts').select((eb) => eb.fn.sum<Count>('n').as('n'));
    q = q.where('observation_type', '=', query.observationType);
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }
  if (!filtered) {
    let q = db.selectFrom('namespace_counts').select((eb) => eb.fn.sum<Count>('memories').as('n'));
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }
  const q = recordsWhere(db, query).select((eb) => eb.fn.countAll<Count>().as('n'));
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** One project's counters as a backend reads them (sums: strings on PostgreSQL). */
export interface ProjectCounts {
  namespace: string;
  events: Count;
  memories: Count;
  last_event_at: string | null;
}

/**
 * Totals per event kind and record type (summed: PostgreSQL keeps them as deltas), shaped
 * with the projects' counters (read meanwhile) into StorageStats. Zero totals are left out.
 */
export async function statsFromCounters(
  db: Kysely<PortableTables>,
  namespace: string | undefined,
  projectsQuery: Promise<readonly ProjectCounts[]>,
): Promise<StorageStats> {
  let kindsQ = db
    .selectFrom('kind_counts')
    .select((eb) => ['kind', eb.fn.sum<Count>('n').as('n')])
    .groupBy('kind');
  let typesQ = db
    .selectFrom('type_counts')
    .select((eb) => ['observation_type', eb.fn.sum<Count>('n').as('n')])
    .groupBy('observation_type');
  if (namespace !== undefined) {
    kindsQ = kindsQ.where('namespace', '=', namespace);
    typesQ = typesQ.where('namespace', '=', namespace);
  }
  const [projects, kinds, types] = await Promise.all([
    projectsQuery,
    kindsQ.execute(),
    typesQ.execute(),
  ]);
  const byKind = Object.fromEntries(
    kinds.filter((k) => Number(k.n) > 0).map((k) => [k.kind, Number(k.n)]),
  );
  const byType = Object.fromEntries(
    types.filter((t) => Number(t.n) > 0).map((t) => [t.observation_type, Number(t.n)]),
  );
  const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);
  return {
    events: { total: sum(byKind), byKind },
    memories: { total: sum(byType), byType },
    projects: projects.map((p) => ({
      namespace: p.namespace,
      events: Number(p.events),
      memories: Number(p.memories),
      ...(p.last_event_at !== null ? { lastEventAt: p.last_event_at } : {}),
    })),
  };
}
