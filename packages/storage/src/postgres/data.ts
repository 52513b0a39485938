import type { MemoryRecord } from '@kiro-learn/schema';
import { type RawBuilder, sql } from 'kysely';
import type { DataStore, ForgetCounts, ForgetScope, PrunePolicy } from '../backend.js';
import { StorageError } from '../errors.js';
import { type ForgetPlan, forgetSteps, noneForgotten } from '../forget-plan.js';
import { teamCopiesScope } from '../team-copies.js';
import type { PgContext } from './context.js';
import { foldAllImpactCounts } from './impact-counts.js';
import { pgRecordFromRow } from './rows.js';
import type { PgRecordRow } from './tables.js';

type Where = RawBuilder<unknown>;

type Plan = ForgetPlan<Where>;

/** The deleting transaction's id: `xid` its low 32 bits, `full` with its epoch. */
interface DeleteXid {
  xid: string;
  full: string;
}

/** How long a compacting forget waits for snapshots older than its delete to end. */
const COMPACT_WAIT_MS = 30_000;

const all = sql`TRUE`;
const and = (a: Where, b?: Where): Where => (b ? sql`(${a}) AND (${b})` : a);
const inNamespace = (namespace: string | undefined, column = 'namespace') =>
  namespace === undefined ? undefined : sql`${sql.ref(column)} = ${namespace}`;
const eventsIn = (events: Where): Where =>
  sql`event_id IN (SELECT event_id FROM events WHERE ${events})`;
/** Records whose source events include one matching `events` (aliased `e`). */
const madeFrom = (events: Where): Where =>
  sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(source_event_ids::jsonb) AS j(id)
    JOIN events e ON e.event_id = j.id WHERE ${events})`;

/** The same scopes as the SQLite backend (see sqlite/forget.ts). */
function planScope(scope: ForgetScope): Plan {
  const copies = teamCopiesScope(scope);
  const plan = planOwn(scope);
  if (copies) {
    plan.copies = copies
      .map((c) =>
        c.column === 'all'
          ? all
          : c.op === '='
            ? sql`${sql.ref(c.column)} = ${c.value}`
            : sql`${sql.ref(c.column)} < ${c.value}`,
      )
      .reduce((a, b) => and(a, b));
  }
  return plan;
}

function planOwn(scope: ForgetScope): Plan {
  if ('all' in scope) {
    return { records: all, events: all, pending: all, retrievals: all, extractions: all };
  }
  if ('record' in scope) return { records: sql`record_id = ${scope.record}` };
  if ('event' in scope) {
    const id = scope.event;
    return {
      records: madeFrom(sql`e.event_id = ${id}`),
      events: sql`event_id = ${id}`,
      pending: sql`event_id = ${id}`,
      retrievals: sql`event_id = ${id}`,
    };
  }
  if ('session' in scope) {
    const events = and(sql`session_id = ${scope.session}`, inNamespace(scope.namespace));
    const joined = and(
      sql`e.session_id = ${scope.session}`,
      inNamespace(scope.namespace, 'e.namespace'),
    );
    return { records: madeFrom(joined), events, pending: eventsIn(events), retrievals: events };
  }
  if ('before' in scope) {
    const ns = inNamespace(scope.namespace);
    const events = and(sql`received_at < ${scope.before}`, ns);
    return {
      records: and(sql`created_at < ${scope.before}`, ns),
      events,
      pending: eventsIn(events),
      retrievals: and(sql`created_at < ${scope.before}`, ns),
      extractions: and(sql`started_at < ${scope.before}`, ns),
    };
  }
  const ns = sql`namespace = ${scope.namespace}`;
  return { records: ns, events: ns, pending: ns, retrievals: ns, extractions: ns };
}

/** The PostgreSQL side of forget, export scans, retention; no file backup. */
export function pgData(ctx: PgContext): DataStore {
  const { db } = ctx;

  async function count(plan: Plan): Promise<ForgetCounts> {
    const counts = noneForgotten();
    for (const [key, table, where] of forgetSteps(plan)) {
      const { rows } = await sql<{ n: string }>`
        SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${where}`.execute(db);
      counts[key] += Number(rows[0]?.n ?? 0);
    }
    return counts;
  }

  /**
   * Deletes in one transaction. The counters follow by themselves: every deleted event
   * and record subtracts itself (delta rows, migration 0008), exact even while other
   * collectors write to the same namespaces.
   */
  async function remove(plan: Plan): Promise<{ counts: ForgetCounts; xid: DeleteXid }> {
    return db.transaction().execute(async (trx) => {
      const counts = noneForgotten();
      for (const [key, table, where] of forgetSteps(plan)) {
        const result = await sql`DELETE FROM ${sql.table(table)} WHERE ${where}`.execute(trx);
        counts[key] += Number(result.numAffectedRows ?? 0);
      }
      // The deleting transaction's id: 32 bits, as pg_stat_activity's backend_xmin is,
      // and with its epoch, as a snapshot's xmin is.
      const { rows } = await sql<DeleteXid>`
        SELECT (txid_current() % 4294967296)::text AS xid, txid_current()::text AS full`.execute(
        trx,
      );
      return { counts, xid: rows[0] ?? { xid: '0', full: '0' } };
    });
  }

  /**
   * Waits (up to COMPACT_WAIT_MS) until no other session of this database still has a
   * snapshot taken before the delete committed, and no transaction that began before it
   * and holds a transaction id still runs, in any database of the server (even idle,
   * without a snapshot). VACUUM FULL copies the rows those can still see ("recently
   * dead"), text and all: compacting while another collector, a psql session or an
   * ANALYZE is in one would leave the forgotten text in the files. Another database's
   * writer counts because every snapshot taken while it runs has an xmin no newer than its
   * id, VACUUM FULL's own included (a reader there, without an id, holds nothing back);
   * the xmin of a snapshot taken now says whether one runs (prepared transactions too).
   * After the wait the rewrite runs anyway, and the answer says whether such a transaction
   * was still running (`false`): the rows it holds back go at a later compaction.
   */
  async function awaitOlderSnapshots({ xid, full }: DeleteXid, waitMs: number): Promise<boolean> {
    const until = Date.now() + waitMs;
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int + (txid_snapshot_xmin(txid_current_snapshot()) < ${full}::bigint)::int AS n
        FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND (age(backend_xmin) >= age(${xid}::xid) OR age(backend_xid) >= age(${xid}::xid))`.execute(
        db,
      );
      if ((rows[0]?.n ?? 0) === 0) return true;
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Rewrites the tables a plan deleted from (`VACUUM FULL`, with their indexes and TOAST
   * tables), so the deleted rows' bytes leave the files; one table at a time, each locked
   * while it is rewritten. Without a statement timeout: a large table takes its time.
   */
  async function compact(plan: Plan, xid: DeleteXid, waitMs: number): Promise<boolean> {
    const clear = await awaitOlderSnapshots(xid, waitMs);
    const tables = new Set<string>();
    for (const [, table] of forgetSteps(plan)) tables.add(table);
    // Rows that go with a record (foreign keys ON DELETE CASCADE, the impact trigger) hold
    // its text or vector.
    if (plan.records) {
      for (const table of ['record_vectors', 'team_records', 'impact_postings']) tables.add(table);
      // The lexemes' counts: a delta, or a count fallen to 0, names a forgotten word.
      await foldAllImpactCounts(db);
      for (const table of ['impact_count_deltas', 'impact_counts']) tables.add(table);
    }
    await db.connection().execute(async (connection) => {
      await sql`SET statement_timeout = 0`.execute(connection);
      try {
        for (const table of tables) await sql`VACUUM FULL ${sql.table(table)}`.execute(connection);
      } finally {
        await sql`RESET statement_timeout`.execute(connection);
      }
    });
    return clear;
  }

  async function planPrune(policy: PrunePolicy): Promise<Plan | undefined> {
    const ns = inNamespace(policy.namespace);
    const parts: Where[] = [];
    if (policy.olderThan !== undefined) parts.push(sql`received_at < ${policy.olderThan}`);
    if (policy.maxBytes !== undefined) {
      const cutoff = await sizeCutoff(policy.maxBytes, policy.namespace);
      if (cutoff !== undefined) parts.push(sql`seq <= ${cutoff}`);
    }
    if (parts.length === 0) return undefined;
    const events = and(sql`(${sql.join(parts, sql` OR `)})`, ns);
    return { events, pending: eventsIn(events), retrievals: eventsIn(events) };
  }

  /** The newest `seq` that must go for a size cap (event text bytes; the whole table without a namespace). */
  async function sizeCutoff(maxBytes: number, namespace?: string): Promise<string | undefined> {
    const scope = namespace === undefined ? sql`TRUE` : sql`namespace = ${namespace}`;
    const { rows } = await sql<{ seq: string }>`
      SELECT seq FROM (SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC) AS kept
        FROM events WHERE ${scope}) t WHERE kept > ${maxBytes} ORDER BY seq DESC LIMIT 1`.execute(
      db,
    );
    return rows[0]?.seq;
  }

  const cursorOf = (cursor: string | undefined): string => {
    if (cursor === undefined) return '0';
    if (!/^\d+$/.test(cursor)) throw new StorageError('invalid_cursor', 'invalid cursor');
    return cursor;
  };

  return {
    async countForget(scope) {
      ctx.ensureOpen();
      return count(planScope(scope));
    },
    async forget(scope, options = {}) {
      ctx.ensureOpen();
      const plan = planScope(scope);
      const { counts, xid } = await remove(plan);
      if (!options.compact) return counts;
      const compacted = await compact(plan, xid, options.compactWaitMs ?? COMPACT_WAIT_MS);
      return { ...counts, compacted };
    },
    async projectNamespaces(directories) {
      ctx.ensureOpen();
      if (directories.length === 0) return [];
      // A scan of the events (no index on the path): forget is rare.
      const { rows } = await sql<{ namespace: string }>`
        SELECT DISTINCT namespace FROM events
        WHERE (json::json -> 'source' ->> 'project_path') = ANY(${[...directories]}::text[])
        ORDER BY namespace`.execute(db);
      return rows.map((row) => row.namespace);
    },
    async pruneEvents(policy) {
      ctx.ensureOpen();
      const plan = await planPrune(policy);
      if (!plan) return noneForgotten();
      return policy.dryRun ? count(plan) : (await remove(plan)).counts;
    },
    async scanEvents(query) {
      ctx.ensureOpen();
      const after = cursorOf(query.cursor);
      const ns = query.namespace === undefined ? sql`` : sql`AND namespace = ${query.namespace}`;
      const { rows } = await sql<{ seq: string; received_at: string; json: string }>`
        SELECT seq, received_at, json FROM events WHERE seq > ${after}::bigint ${ns}
        ORDER BY seq LIMIT ${query.limit}`.execute(db);
      const last = rows.at(-1);
      return {
        items: rows.map((row) => ({ json: row.json, receivedAt: row.received_at })),
        ...(rows.length === query.limit && last ? { nextCursor: String(last.seq) } : {}),
      };
    },
    async scanRecords(query) {
      ctx.ensureOpen();
      // Records have no serial key here: page by record_id (ULIDs sort by creation).
      const after = query.cursor ?? '';
      const ns = query.namespace === undefined ? sql`` : sql`AND namespace = ${query.namespace}`;
      const { rows } = await sql<PgRecordRow>`
        SELECT * FROM memory_records WHERE record_id > ${after} ${ns}
        ORDER BY record_id LIMIT ${query.limit}`.execute(db);
      const last = rows.at(-1);
      const items: MemoryRecord[] = rows.map(pgRecordFromRow);
      return {
        items,
        ...(rows.length === query.limit && last ? { nextCursor: last.record_id } : {}),
      };
    },
    async backup() {
      throw new StorageError(
        'unsupported',
        'a PostgreSQL database is backed up with its own tools (pg_dump), not by kiro-learn backup',
      );
    },
  };
}
