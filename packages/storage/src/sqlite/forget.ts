import type Database from 'better-sqlite3';
import type { ForgetCounts, ForgetScope, PrunePolicy } from '../backend.js';
import { type ForgetPlan, type ForgetStep, forgetSteps, noneForgotten } from '../forget-plan.js';
import { teamCopiesScope } from '../team-copies.js';

/** A WHERE clause and its parameters. */
interface Where {
  sql: string;
  params: unknown[];
}

type Plan = ForgetPlan<Where>;

const where = (sql: string, ...params: unknown[]): Where => ({ sql, params });
const and = (a: Where, b: Where | undefined): Where =>
  b ? { sql: `(${a.sql}) AND (${b.sql})`, params: [...a.params, ...b.params] } : a;
const inNamespace = (namespace: string | undefined, column = 'namespace') =>
  namespace === undefined ? undefined : where(`${column} = ?`, namespace);

/**
 * Which rows of each table a scope covers. Records derived from forgotten events go with
 * them (they repeat the events' text); `record` forgets one record alone.
 */
function planScope(scope: ForgetScope): Plan {
  const copies = teamCopiesScope(scope);
  const plan = planOwn(scope);
  if (copies) {
    plan.copies = {
      sql: copies.map((c) => (c.column === 'all' ? '1' : `${c.column} ${c.op} ?`)).join(' AND '),
      params: copies.flatMap((c) => (c.column === 'all' ? [] : [c.value])),
    };
  }
  return plan;
}

function planOwn(scope: ForgetScope): Plan {
  if ('all' in scope) {
    const all = where('1');
    return { records: all, events: all, pending: all, retrievals: all, extractions: all };
  }
  if ('record' in scope) return { records: where('record_id = ?', scope.record) };
  if ('namespace' in scope && !('session' in scope) && !('before' in scope)) {
    const ns = where('namespace = ?', scope.namespace);
    return { records: ns, events: ns, pending: ns, retrievals: ns, extractions: ns };
  }
  if ('event' in scope) {
    const id = scope.event;
    return {
      records: where(
        `namespace = (SELECT namespace FROM events WHERE event_id = ?)
         AND EXISTS (SELECT 1 FROM json_each(source_event_ids) WHERE value = ?)`,
        id,
        id,
      ),
      events: where('event_id = ?', id),
      pending: where('event_id = ?', id),
      retrievals: where('event_id = ?', id),
    };
  }
  if ('session' in scope) {
    const session = (prefix: string) =>
      and(
        where(`${prefix}session_id = ?`, scope.session),
        inNamespace(scope.namespace, `${prefix}namespace`),
      );
    const events = session('');
    const joined = session('e.');
    return {
      records: {
        sql: `namespace IN (SELECT DISTINCT namespace FROM events WHERE ${events.sql})
          AND EXISTS (SELECT 1 FROM json_each(source_event_ids) j
            JOIN events e ON e.event_id = j.value WHERE ${joined.sql})`,
        params: [...events.params, ...joined.params],
      },
      events,
      pending: eventsIn(events),
      retrievals: events,
    };
  }
  const ns = inNamespace(scope.namespace);
  const events = and(where('received_at < ?', scope.before), ns);
  return {
    records: and(where('created_at < ?', scope.before), ns),
    events,
    pending: eventsIn(events),
    retrievals: and(where('created_at < ?', scope.before), ns),
    extractions: and(where('started_at < ?', scope.before), ns),
  };
}

/** Rows keyed by `event_id` whose event matches `events`. */
const eventsIn = (events: Where): Where => ({
  sql: `event_id IN (SELECT event_id FROM events WHERE ${events.sql})`,
  params: events.params,
});

/**
 * The statements whose table the database has: a backup made before team memory (0008)
 * has no kept copies of teammates' records, and is still rewritten, not deleted.
 */
function present(
  sqlite: Database.Database,
  steps: Array<ForgetStep<Where>>,
): Array<ForgetStep<Where>> {
  const copies = steps.some(([, table]) => table === 'team_record_copies');
  if (!copies) return steps;
  const has = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_record_copies'")
    .get();
  return has ? steps : steps.filter(([, table]) => table !== 'team_record_copies');
}

/** Counts what a scope covers. */
export function countScope(sqlite: Database.Database, scope: ForgetScope): ForgetCounts {
  return countPlan(sqlite, planScope(scope));
}

function countPlan(sqlite: Database.Database, plan: Plan): ForgetCounts {
  const counts = noneForgotten();
  for (const [key, table, w] of present(sqlite, forgetSteps(plan))) {
    counts[key] += Number(
      sqlite
        .prepare(`SELECT count(*) FROM ${table} WHERE ${w.sql}`)
        .pluck()
        .get(...w.params),
    );
  }
  return counts;
}

/** Deletes what a scope covers; run inside the writer's transaction. */
export function deleteScope(sqlite: Database.Database, scope: ForgetScope): ForgetCounts {
  return deletePlan(sqlite, planScope(scope));
}

function deletePlan(sqlite: Database.Database, plan: Plan): ForgetCounts {
  const counts = noneForgotten();
  for (const [key, table, w] of present(sqlite, forgetSteps(plan))) {
    counts[key] += sqlite.prepare(`DELETE FROM ${table} WHERE ${w.sql}`).run(...w.params).changes;
  }
  if (counts.records > 0) sweepRecordTables(sqlite);
  // Counters of projects and kinds that are gone would otherwise name them forever.
  sqlite.exec(`DELETE FROM kind_counts WHERE n <= 0;
    DELETE FROM type_counts WHERE n <= 0;
    DELETE FROM namespace_counts WHERE events <= 0 AND memories <= 0`);
  return counts;
}

/**
 * Rows of other tables keyed by `record_id` (vectors, and whatever later migrations add)
 * whose record is gone: a table that keeps a record's embedding must not outlive it.
 */
function sweepRecordTables(sqlite: Database.Database): void {
  const tables = sqlite
    .prepare(
      `SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c
       WHERE m.type = 'table' AND m.name <> 'memory_records' AND c.name = 'record_id'`,
    )
    .pluck()
    .all() as string[];
  for (const table of tables) {
    sqlite.exec(
      `DELETE FROM "${table}" WHERE record_id NOT IN (SELECT record_id FROM memory_records)`,
    );
  }
}

/** Namespaces with an event captured in one of `directories` (source.project_path), sorted. */
export function namespacesOfDirectories(
  sqlite: Database.Database,
  directories: readonly string[],
): string[] {
  if (directories.length === 0) return [];
  // A scan of the events (no index on the path): forget is rare, and this runs once per forget.
  return sqlite
    .prepare(
      `SELECT DISTINCT namespace FROM events
       WHERE json_extract(json, '$.source.project_path') IN (${directories.map(() => '?').join(', ')})
       ORDER BY namespace`,
    )
    .pluck()
    .all(...directories) as string[];
}

/** The event plan of a retention policy (records are kept). */
function planPrune(sqlite: Database.Database, policy: PrunePolicy): Plan | undefined {
  const ns = inNamespace(policy.namespace);
  const parts: Where[] = [];
  if (policy.olderThan !== undefined) parts.push(where('received_at < ?', policy.olderThan));
  if (policy.maxBytes !== undefined) {
    const cutoff = sizeCutoff(sqlite, policy.maxBytes, policy.namespace);
    if (cutoff !== undefined) parts.push(where('seq <= ?', cutoff));
  }
  if (parts.length === 0) return undefined;
  const events = and(
    {
      sql: parts.map((p) => `(${p.sql})`).join(' OR '),
      params: parts.flatMap((p) => p.params),
    },
    ns,
  );
  const retrievals: Where = {
    sql: `event_id IN (SELECT event_id FROM events WHERE ${events.sql})${
      policy.olderThan !== undefined
        ? ` OR (created_at < ?${policy.namespace !== undefined ? ' AND namespace = ?' : ''})`
        : ''
    }`,
    params: [
      ...events.params,
      ...(policy.olderThan !== undefined ? [policy.olderThan] : []),
      ...(policy.olderThan !== undefined && policy.namespace !== undefined
        ? [policy.namespace]
        : []),
    ],
  };
  return {
    events,
    pending: eventsIn(events),
    retrievals,
  };
}

/**
 * The newest `seq` that must go for the size cap, or undefined when everything fits. With
 * a namespace the cap is on its stored event text; without, on the database's used pages
 * (the oldest events' text is freed until the excess is covered).
 */
function sizeCutoff(
  sqlite: Database.Database,
  maxBytes: number,
  namespace: string | undefined,
): number | undefined {
  if (namespace !== undefined) {
    const seq = sqlite
      .prepare(
        `SELECT seq FROM (SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC) AS kept
           FROM events WHERE namespace = ?) WHERE kept > ? ORDER BY seq DESC LIMIT 1`,
      )
      .pluck()
      .get(namespace, maxBytes);
    return seq === undefined ? undefined : Number(seq);
  }
  const pageSize = Number(sqlite.pragma('page_size', { simple: true }));
  const pages = Number(sqlite.pragma('page_count', { simple: true }));
  const free = Number(sqlite.pragma('freelist_count', { simple: true }));
  const excess = (pages - free) * pageSize - maxBytes;
  if (excess <= 0) return undefined;
  const seq = sqlite
    .prepare(
      `SELECT seq FROM (SELECT seq, SUM(bytes) OVER (ORDER BY seq) AS freed FROM events)
       WHERE freed >= ? ORDER BY seq LIMIT 1`,
    )
    .pluck()
    .get(excess);
  if (seq !== undefined) return Number(seq);
  const last = sqlite.prepare('SELECT max(seq) FROM events').pluck().get();
  return last === null || last === undefined ? undefined : Number(last);
}

/** Counts what a retention policy would drop. */
export function countPrune(sqlite: Database.Database, policy: PrunePolicy): ForgetCounts {
  const plan = planPrune(sqlite, policy);
  return plan ? countPlan(sqlite, plan) : noneForgotten();
}

/** Drops what a retention policy covers; run inside the writer's transaction. */
export function deletePrune(sqlite: Database.Database, policy: PrunePolicy): ForgetCounts {
  const plan = planPrune(sqlite, policy);
  return plan ? deletePlan(sqlite, plan) : noneForgotten();
}

/**
 * After a delete: when records went, merge the full-text index into one segment (its
 * `secure-delete` option removes most deleted terms at once, but not every one: a term
 * can survive in a segment an automerge wrote meanwhile); then copy the WAL into the
 * database and truncate it, so the old pages survive in neither file. The writer runs with
 * `secure_delete`, so the pages and cells freed on the way are zeroed.
 *
 * The checkpoint worker may be mid-checkpoint: then the truncation is retried (without
 * blocking the event loop in SQLite's busy handler) until it succeeds or `timeoutMs`
 * passes. Resolves to whether the WAL was truncated.
 */
export async function eraseTraces(
  sqlite: Database.Database,
  records: boolean,
  busyTimeoutMs: number,
  timeoutMs = 60_000,
): Promise<boolean> {
  if (records) sqlite.exec("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    sqlite.pragma('busy_timeout = 0');
    let busy: boolean;
    try {
      const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      busy = result !== undefined && result.busy !== 0;
    } catch {
      busy = true;
    } finally {
      sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
    }
    if (!busy) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
