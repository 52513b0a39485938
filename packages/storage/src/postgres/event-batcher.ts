import type { Event } from '@kiro-learn/schema';
import type pg from 'pg';
import type { PutEventOptions, PutEventResult } from '../backend.js';
import { StorageError } from '../errors.js';
import { now, translateError, withoutNul } from './context.js';
import { NO_WATCHER_FRESH_MS, noticePayloads } from './watch.js';

interface Item {
  event: Event;
  json: string;
  bytes: number;
  receivedAt: string;
  pending: boolean;
  resolve: (result: PutEventResult) => void;
  reject: (error: unknown) => void;
  /** performance.now() when it was handed in. */
  queuedAt: number;
}

/** Where the batcher's statements go: its own connection (OwnConnection), or a pg.Pool. */
export interface Queryable {
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
}

export interface EventBatcherOptions {
  /** Most events in one statement (default 256). */
  maxBatch?: number;
  /**
   * How long an event waits for the statement in flight before failing `unavailable`, in
   * ms (the storage's acquireTimeoutMs; default 2000): behind a statement stuck on a lock
   * the queue is what a pool's wait for a free connection was, and answers 503 as soon.
   */
  maxWaitMs?: number;
  /** Told how many events each committed statement stored (the counter compactor). */
  onStored?: (events: number) => void;
  /**
   * Announces stored events to the other backends watching the schema (watchEvents): one
   * NOTIFY statement per committed batch, and none while nobody else watches.
   */
  announce?: {
    /** The channel (eventsChannel). */
    channel: string;
    /** This backend's application_name: its own watcher leaves these out. */
    origin: string;
    /** listenerPrefix(schema): the watchers' application_name starts with it. */
    listenerPrefix: string;
    /** This backend's own watcher's application_name, not counted. */
    ownListener: string;
  };
}

/**
 * Group commit for events. Every commit waits for a WAL flush: one statement per event
 * capped ingest at one flush per event. Here events that arrive while the statement is in
 * flight wait and go together in the next, one multi-row statement (one commit, one
 * flush). One statement at a time, on a connection of the batcher's own: with two in
 * flight, batches held 2.2 events instead of 3.8 at 8 clients (1.2 instead of 1.9 per
 * collector of a pair) and a request cost the collector 20–50 % more CPU, which the
 * second commit's overlap did not pay back on a 2-core machine. The
 * statement shares no row lock with other writers (counters are appended deltas,
 * migration 0008), so batches of this and other collectors commit side by side. Rows are
 * inserted ordered by namespace, then arrival, so within a namespace `seq` keeps arrival
 * order. A batch that fails for a reason other than the server (unavailable, timeout) is
 * retried event by event, so one bad event cannot fail its neighbours.
 */
export class PgEventBatcher {
  readonly #connection: Queryable;
  readonly #pool: Queryable;
  readonly #queue: Item[] = [];
  readonly #maxBatch: number;
  readonly #onStored: (events: number) => void;
  readonly #announce: EventBatcherOptions['announce'];
  readonly #maxWaitMs: number;
  #inFlight = false;
  /** Fails the events that waited past maxWaitMs (armed while any wait). */
  #waitTimer: NodeJS.Timeout | undefined;
  #drained: Array<() => void> = [];
  /** Announcements go one after another, in commit order. */
  #announcing: Promise<void> = Promise.resolve();
  /**
   * When (performance.now()) the newest probe that found no watcher was sent: until
   * NO_WATCHER_FRESH_MS later, batches skip the probe (see #insert).
   */
  #noWatcherSince = Number.NEGATIVE_INFINITY;

  /**
   * `connection`: where the batches go, one statement at a time (named statements need pg
   * itself: kysely cannot name one); `pool`: the storage's pool, for announcements.
   */
  constructor(connection: Queryable, pool: Queryable, options: EventBatcherOptions = {}) {
    this.#connection = connection;
    this.#pool = pool;
    this.#maxBatch = options.maxBatch ?? 256;
    this.#maxWaitMs = options.maxWaitMs ?? 2000;
    this.#onStored = options.onStored ?? (() => undefined);
    this.#announce = options.announce;
  }

  /** Stores the event (once by event_id), resolving after its batch committed. */
  put(event: Event, options: PutEventOptions): Promise<PutEventResult> {
    const json = JSON.stringify(event);
    return new Promise((resolve, reject) => {
      this.#queue.push({
        event,
        json,
        bytes: Buffer.byteLength(json, 'utf8'),
        receivedAt: options.receivedAt ?? now(),
        pending: options.pending === true,
        resolve,
        reject,
        queuedAt: performance.now(),
      });
      this.#next();
    });
  }

  /**
   * Arms one timer for the oldest waiting event (the queue is in arrival order); when it
   * fires, every event waiting past maxWaitMs fails `unavailable`, and it is armed again.
   */
  #armWaitTimer(): void {
    if (this.#waitTimer || this.#queue.length === 0) return;
    const due = this.#queue[0]!.queuedAt + this.#maxWaitMs - performance.now();
    this.#waitTimer = setTimeout(
      () => {
        this.#waitTimer = undefined;
        const late = performance.now() - this.#maxWaitMs;
        let n = 0;
        while (n < this.#queue.length && this.#queue[n]!.queuedAt <= late) n++;
        for (const item of this.#queue.splice(0, n)) {
          item.reject(
            new StorageError(
              'unavailable',
              `the database is unavailable: no statement slot within ${this.#maxWaitMs} ms`,
            ),
          );
        }
        this.#next();
      },
      Math.max(0, due),
    );
    this.#waitTimer.unref();
  }

  #next(): void {
    if (!this.#inFlight && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      this.#inFlight = true;
      void this.#run(batch).finally(() => {
        this.#inFlight = false;
        this.#next();
      });
    }
    if (this.#queue.length === 0 && this.#waitTimer) {
      clearTimeout(this.#waitTimer);
      this.#waitTimer = undefined;
    }
    this.#armWaitTimer();
    if (!this.#inFlight && this.#queue.length === 0) {
      for (const done of this.#drained.splice(0)) done();
    }
  }

  /** Resolves once every event handed in so far is settled and announced (close awaits it). */
  async idle(): Promise<void> {
    if (this.#inFlight || this.#queue.length > 0) {
      await new Promise<void>((resolve) => this.#drained.push(resolve));
    }
    await this.#announcing;
  }

  async #run(batch: Item[]): Promise<void> {
    try {
      const { stored, watched } = await this.#insert(batch);
      this.#onStored(stored.size);
      for (const [i, item] of batch.entries()) item.resolve({ stored: stored.has(i) });
      if (watched) this.#announceStored(batch.filter((_, i) => stored.has(i)));
    } catch (error) {
      if (batch.length === 1 || translateError(error) instanceof StorageError) {
        for (const item of batch) item.reject(error);
        return;
      }
      await Promise.all(batch.map((item) => this.#run([item])));
    }
  }

  /**
   * NOTIFY, after the batch's commit, in a statement of its own: a transaction that
   * notifies holds a database-wide lock through its commit, so the insert (which waits for
   * its WAL flush) must not be that transaction. This one writes nothing worth a flush
   * (synchronous_commit off: a crash can lose only a live notice). Failures only cost the
   * watchers a notice.
   */
  #announceStored(items: readonly Item[]): void {
    const announce = this.#announce;
    if (!announce || items.length === 0) return;
    const payloads = noticePayloads(
      announce.origin,
      items.map((item) => ({
        eventId: item.event.event_id,
        namespace: item.event.namespace,
        json: item.json,
        bytes: item.bytes,
      })),
    );
    this.#announcing = this.#announcing.then(async () => {
      try {
        await this.#pool.query({
          name: 'kiro_learn_announce_events',
          text: `SELECT set_config('synchronous_commit', 'off', true),
              count(pg_notify($1, payload)) FROM unnest($2::text[]) AS payload`,
          values: [announce.channel, payloads],
        });
      } catch {
        // a live feed misses these events; nothing stored is lost
      }
    });
  }

  /**
   * One statement for the batch: the indexes (into `batch`) stored now, and whether
   * another backend watches the schema's events. A named statement: parsed and planned
   * once per connection, not per batch (0.59 → 0.39 ms for one event, the plain INSERT
   * being 0.34). Whether anyone watches is read from pg_stat_activity in the same round
   * trip, but that read cost as much again (0.3 ms of the backend's CPU a batch), so a
   * probe that found nobody holds for NO_WATCHER_FRESH_MS, and a watcher waits as long
   * after connecting before it counts as watching (watchEvents): a batch sent then uses a
   * probe sent after the watcher connected. A probe that found one is not reused, so a
   * watcher that left stops costing notices at the next batch.
   *
   * The batch is one parameter, a JSON array of rows: with nine array parameters a
   * statement cost the collector 15–65 µs more CPU (node-postgres escapes every element of
   * an array in JavaScript, JSON.stringify is native; interleaved runs on a loaded
   * machine), and the database no less.
   */
  async #insert(batch: readonly Item[]): Promise<{ stored: Set<number>; watched: boolean }> {
    const announce = this.#announce;
    const sentAt = performance.now();
    const probe = announce !== undefined && sentAt - this.#noWatcherSince >= NO_WATCHER_FRESH_MS;
    const values: unknown[] = [
      JSON.stringify(
        batch.map((x) => [
          pgText(x.event.event_id),
          pgText(x.event.namespace),
          pgText(x.event.session_id),
          pgText(x.event.kind),
          pgText(x.event.valid_time),
          x.receivedAt,
          x.bytes,
          x.json,
          x.pending,
        ]),
      ),
    ];
    if (probe) values.push(announce.listenerPrefix, announce.ownListener);
    const { rows } = await this.#connection.query<{ i: string; watchers: number }>({
      name: probe ? 'kiro_learn_put_events_probe' : 'kiro_learn_put_events',
      text: probe ? PUT_EVENTS_PROBE : PUT_EVENTS,
      values,
    });
    let watched = false;
    if (probe) {
      // An empty result (only duplicates) read nothing: the next batch probes again.
      watched = rows.some((row) => Number(row.watchers) > 0);
      if (rows.length > 0 && !watched) {
        this.#noWatcherSince = Math.max(this.#noWatcherSince, sentAt);
      }
      if (watched) this.#noWatcherSince = Number.NEGATIVE_INFINITY;
    }
    return { stored: new Set(rows.map((row) => Number(row.i) - 1)), watched };
  }
}

/**
 * A column's text as a JSON string PostgreSQL takes: no NUL (text cannot hold it), and a
 * lone UTF-16 surrogate (which JSON.stringify escapes and PostgreSQL refuses) as U+FFFD,
 * what the driver sent for one before. An event's own JSON needs neither: it is escaped.
 */
function pgText(text: string): string {
  const kept = withoutNul(text);
  return LONE_SURROGATE.test(kept) ? kept.replace(LONE_SURROGATE_ALL, '\uFFFD') : kept;
}
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATE_ALL = /\p{Surrogate}/gu;

/**
 * The batch's statement: $1 is the batch, a JSON array of [event_id, namespace,
 * session_id, kind, valid_time, received_at, bytes, json, pending] rows; `watchers` is
 * filled in by PUT_EVENTS_PROBE only.
 */
const putEvents = (watchers: string) => `
  WITH input AS (
    SELECT e->>0 AS event_id, e->>1 AS namespace, e->>2 AS session_id, e->>3 AS kind,
      e->>4 AS valid_time, e->>5 AS received_at, (e->>6)::int AS bytes, e->>7 AS json,
      (e->>8)::bool AS pending, i
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, i)
  ), inserted AS (
    INSERT INTO events (event_id, namespace, session_id, kind, valid_time, received_at, bytes, json)
    SELECT event_id, namespace, session_id, kind, valid_time, received_at, bytes, json
    FROM input ORDER BY namespace, i
    ON CONFLICT (event_id) DO NOTHING
    RETURNING seq, event_id, namespace, bytes, received_at
  ), firsts AS (
    -- A batch may hold one event_id twice: the first copy is the one stored.
    SELECT DISTINCT ON (event_id) event_id, pending, i FROM input ORDER BY event_id, i
  ), appended AS (
    INSERT INTO pending (namespace, event_id, seq, bytes, appended_at)
    SELECT ins.namespace, ins.event_id, ins.seq, ins.bytes, ins.received_at
    FROM inserted ins JOIN firsts f USING (event_id)
    WHERE f.pending
    ORDER BY ins.namespace, ins.seq
  )
  SELECT f.i, ${watchers} AS watchers FROM inserted ins JOIN firsts f USING (event_id)`;

const PUT_EVENTS = putEvents('0');

/** With the number of other backends' watchers ($2: listenerPrefix, $3: own listener). */
const PUT_EVENTS_PROBE = putEvents(`(SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database()
      AND starts_with(application_name, $2::text)
      AND application_name <> $3::text)::int`);
