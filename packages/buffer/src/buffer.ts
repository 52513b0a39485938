import type { Event, MemoryRecord } from '@kiro-learn/schema';
import type { ExtractionLogInput, StorageBackend } from '@kiro-learn/storage';
import { buildBatch } from './batch.js';
import { type Breaker, type BreakerSnapshot, type BreakerState, createBreaker } from './breaker.js';
import { BufferError } from './errors.js';
import { type BufferOptions, resolveOptions } from './options.js';

/** Why an extraction started. */
export type Trigger =
  /** Pending bytes reached the threshold. */
  | 'threshold'
  /** No new event for `idleMs`. */
  | 'idle'
  /** A `session_summary` event ended a turn. */
  | 'turn_end'
  /** extractNow(). */
  | 'manual'
  /** Re-armed from the database by start(). */
  | 'startup'
  /** After a failure (closed breaker), or a half-open breaker's trial. */
  | 'retry'
  /** The previous batch was capped and more was pending. */
  | 'backlog';

/** What the buffer hands to `extract`. Structurally an extractor's ExtractionBatch. */
export interface ExtractBatch {
  namespace: string;
  /** The events, oldest first. */
  events: readonly Event[];
  trigger: Trigger;
}

/** What `extract` returns. Structurally an extractor's ExtractionResult. */
export interface ExtractOutcome {
  /** Records to store; all of the batch's namespace. Empty: nothing worth keeping. */
  records: readonly MemoryRecord[];
  /** Agent sessions used, for the log. */
  attempts?: number;
  /** Which extractor ran, for the log. */
  extractor?: string;
}

/** Turns a batch into records; rejects when it cannot (the batch then stays pending). */
export type ExtractFn = (batch: ExtractBatch) => Promise<ExtractOutcome>;

/** One finished extraction: the extraction-log entry plus what the watcher knows. */
export interface ExtractionRun extends ExtractionLogInput {
  trigger: Trigger;
  /** Ids of the records stored. */
  recordIds: string[];
  /** The project's breaker after this run. */
  breaker: BreakerSnapshot;
}

/** One project's buffer, as `status()` reports it. */
export interface ProjectStatus {
  namespace: string;
  pendingEvents: number;
  pendingBytes: number;
  /** Pending bytes are at the ceiling: new events are stored but not buffered. */
  overCeiling: boolean;
  /** Events stored but left out of the buffer because of the ceiling, since start. */
  unbufferedEvents: number;
  /** An extraction is running now. */
  extracting: boolean;
  /** When the watcher fires next (ISO), and why. */
  next?: { at: string; trigger: Trigger };
  breaker: BreakerSnapshot;
  lastRun?: ExtractionRun;
}

export interface BufferStatus {
  projects: ProjectStatus[];
}

/** What createBuffer needs. */
export interface CreateBufferInput {
  /** Where events and the pending buffer live; events arrive via putEvent(event, {pending: true}). */
  storage: StorageBackend;
  /** Turns a batch into records (e.g. `(batch) => extractor.extract(batch)`). */
  extract: ExtractFn;
  /** Triggers, ceiling, batch caps and breaker settings; defaults in BUFFER_DEFAULTS. */
  options?: Partial<BufferOptions>;
  /** Extractor name logged when the outcome names none. */
  extractorName?: string;
  /** Receives errors nobody awaits (a failed log write, a failed listener). */
  onError?: (error: unknown) => void;
  /** Clock in epoch ms; Date.now when omitted. */
  now?: () => number;
}

/** The per-project pending buffer and its watchers. */
export interface PendingBuffer {
  /**
   * Tells the watcher an event was stored with `{pending: true}`. Never throws, never
   * waits: a turn end extracts now, the threshold extracts now, anything else re-arms the
   * idle timer. Past the ceiling the event is taken back out of the buffer (it stays stored).
   */
  notify(event: Event): void;
  /**
   * False while a project is past the ceiling. A caller may pass it as putEvent's
   * `pending` flag to spare notify() taking the entry back out.
   */
  accepts(namespace: string): boolean;
  /**
   * Re-arms a watcher for every project with pending events in the database: a project
   * whose last pending event ended a turn, or at the threshold, is extracted at once; any
   * other waits out the idle time counted from its newest pending event.
   */
  start(): Promise<void>;
  /**
   * Extracts a project's pending events now (after any run in flight), even while its
   * breaker is open. Resolves with the last run, whose status may be `failed`; rejects
   * with BufferError `nothing_pending` or `closed`.
   */
  extractNow(namespace: string): Promise<ExtractionRun>;
  /** Pending sizes, breaker, next trigger and last run of every project seen. */
  status(): BufferStatus;
  /** A project's breaker state; undefined for a project never seen. */
  breakerState(namespace: string): BreakerState | undefined;
  /** Follows finished extraction runs. Returns the unsubscribe function. */
  onExtraction(listener: (run: ExtractionRun) => void): () => void;
  /** Stops every watcher and waits for runs in flight. Pending events stay in the database. */
  drain(): Promise<void>;
}

interface Project {
  namespace: string;
  pendingCount: number;
  pendingBytes: number;
  unbuffered: number;
  breaker: Breaker;
  timer?: NodeJS.Timeout;
  next?: { at: number; trigger: Trigger };
  running?: Promise<ExtractionRun | undefined>;
  /** A trigger that fired while a run was in flight. */
  again?: Trigger;
  lastRun?: ExtractionRun;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sessions a failed extractor spent, when its error says (ExtractorError.attempts). */
function attemptsOf(error: unknown): number {
  const attempts = (error as { attempts?: unknown } | undefined)?.attempts;
  return typeof attempts === 'number' ? attempts : 1;
}

/**
 * Creates the buffer. Extraction is at-least-once and never loses an event: a batch's
 * pending entries are removed only by the same transaction that stores its records, and
 * events appended during a run are not in that batch, so they stay for the next one.
 */
export function createBuffer(input: CreateBufferInput): PendingBuffer {
  const options = resolveOptions(input.options);
  const { storage, extract } = input;
  const now = input.now ?? Date.now;
  const onError = input.onError ?? (() => {});
  const listeners = new Set<(run: ExtractionRun) => void>();
  const projects = new Map<string, Project>();
  const removals = new Set<Promise<void>>();
  let closed = false;

  const emitted = new WeakSet<ExtractionRun>();
  function emit(run: ExtractionRun): void {
    if (emitted.has(run)) return;
    emitted.add(run);
    for (const listener of listeners) {
      try {
        listener(run);
      } catch (error) {
        onError(error);
      }
    }
  }

  function project(namespace: string): Project {
    let p = projects.get(namespace);
    if (!p) {
      p = {
        namespace,
        pendingCount: 0,
        pendingBytes: 0,
        unbuffered: 0,
        breaker: createBreaker({
          failures: options.breakerFailures,
          backoffMs: options.breakerBackoffMs,
          maxBackoffMs: options.breakerMaxBackoffMs,
        }),
      };
      projects.set(namespace, p);
    }
    return p;
  }

  function arm(p: Project, delayMs: number, trigger: Trigger): void {
    clearTimeout(p.timer);
    if (closed) return;
    const delay = Math.max(0, delayMs);
    p.next = { at: now() + delay, trigger };
    p.timer = setTimeout(() => void fire(p, trigger), delay);
    // The collector's server keeps the process alive; a watcher alone must not.
    p.timer.unref();
  }

  async function refresh(p: Project): Promise<void> {
    const summary = (await storage.pendingSummary()).find((s) => s.namespace === p.namespace);
    p.pendingCount = summary?.count ?? 0;
    p.pendingBytes = summary?.bytes ?? 0;
  }

  function fire(p: Project, trigger: Trigger, force = false): Promise<ExtractionRun | undefined> {
    clearTimeout(p.timer);
    p.timer = undefined;
    p.next = undefined;
    if (closed) return Promise.resolve(undefined);
    if (p.running) {
      p.again = trigger;
      return p.running;
    }
    const openUntil = p.breaker.openUntil();
    if (!force && p.breaker.state(now()) === 'open' && openUntil !== undefined) {
      arm(p, openUntil - now(), 'retry');
      return Promise.resolve(undefined);
    }
    const running = runBatches(p, trigger).catch((error: unknown) => {
      onError(error);
      return undefined;
    });
    p.running = running;
    void running.then((run) => {
      p.running = undefined;
      afterRun(p);
      // Reported after the watcher re-armed, so a listener reading status() sees what comes next.
      if (run) emit(run);
    });
    return running;
  }

  /** Decides what a project's watcher does once a run finished. */
  function afterRun(p: Project): void {
    if (closed) return;
    const again = p.again;
    p.again = undefined;
    if (p.lastRun?.status === 'failed') {
      const openUntil = p.breaker.openUntil();
      if (p.breaker.state(now()) === 'open' && openUntil !== undefined)
        arm(p, openUntil - now(), 'retry');
      else arm(p, options.retryMs, 'retry');
    } else if (again) void fire(p, again);
    else if (p.pendingCount > 0) arm(p, options.idleMs, 'idle');
  }

  async function runBatches(p: Project, trigger: Trigger): Promise<ExtractionRun | undefined> {
    let run: ExtractionRun | undefined;
    let reason = trigger;
    let more = true;
    while (more && !closed) {
      if (run) emit(run);
      const startedAt = now();
      const batch = await buildBatch(storage, p.namespace, {
        maxBytes: options.maxBatchBytes,
        maxEvents: options.maxBatchEvents,
      });
      if (batch.eventIds.length === 0) break;
      more = batch.more;
      let outcome: ExtractOutcome | undefined;
      let failure: unknown;
      try {
        outcome = await extract({ namespace: p.namespace, events: batch.events, trigger: reason });
        const foreign = outcome.records.find((record) => record.namespace !== p.namespace);
        if (foreign) {
          throw new BufferError(
            'foreign_record',
            `the extractor returned a record of ${foreign.namespace} for ${p.namespace}`,
          );
        }
        await storage.commitExtraction({
          namespace: p.namespace,
          records: outcome.records,
          eventIds: batch.eventIds,
        });
        p.breaker.success();
      } catch (error) {
        failure = error;
        p.breaker.failure(now());
      }
      const records = failure === undefined ? (outcome?.records ?? []) : [];
      const entry: ExtractionLogInput = {
        namespace: p.namespace,
        extractor: outcome?.extractor ?? input.extractorName ?? 'extract',
        status: failure !== undefined ? 'failed' : records.length > 0 ? 'ok' : 'skipped',
        batchSize: batch.eventIds.length,
        records: records.length,
        attempts: outcome?.attempts ?? attemptsOf(failure),
        durationMs: Math.max(0, now() - startedAt),
        startedAt: new Date(startedAt).toISOString(),
        ...(failure !== undefined ? { error: message(failure) } : {}),
      };
      run = {
        ...entry,
        trigger: reason,
        recordIds: records.map((record) => record.record_id),
        breaker: p.breaker.snapshot(now()),
      };
      p.lastRun = run;
      await refresh(p).catch(onError);
      await storage.logExtraction(entry).catch(onError);
      if (failure !== undefined) break;
      reason = 'backlog';
    }
    return run;
  }

  return {
    notify(event) {
      if (closed) return;
      const p = project(event.namespace);
      if (p.pendingBytes >= options.ceilingBytes) {
        p.unbuffered++;
        const removal = storage
          .removePending(event.namespace, [event.event_id])
          .then(() => {}, onError);
        removals.add(removal);
        void removal.finally(() => removals.delete(removal));
        return;
      }
      p.pendingCount++;
      p.pendingBytes += Buffer.byteLength(JSON.stringify(event));
      if (event.kind === 'session_summary') void fire(p, 'turn_end');
      else if (p.pendingBytes >= options.thresholdBytes) void fire(p, 'threshold');
      else if (!p.running) arm(p, options.idleMs, 'idle');
    },

    async start() {
      if (closed) throw new BufferError('closed', 'the buffer was drained; create a new one');
      for (const summary of await storage.pendingSummary()) {
        const p = project(summary.namespace);
        p.pendingCount = summary.count;
        p.pendingBytes = summary.bytes;
        if (p.running) continue;
        // A turn that ended before the stop is extracted now; an unfinished one waits out its idle time.
        const newest = (await storage.listPending(summary.namespace)).at(-1);
        const ended =
          newest && (await storage.getEvent(newest.eventId))?.kind === 'session_summary';
        if (ended || summary.bytes >= options.thresholdBytes) void fire(p, 'startup');
        else arm(p, Date.parse(summary.newestAt) + options.idleMs - now(), 'startup');
      }
    },

    async extractNow(namespace) {
      if (closed) throw new BufferError('closed', 'the buffer was drained; create a new one');
      const p = project(namespace);
      while (p.running) await p.running;
      await refresh(p);
      const run = p.pendingCount > 0 ? await fire(p, 'manual', true) : undefined;
      if (!run) throw new BufferError('nothing_pending', `nothing is pending for ${namespace}`);
      return run;
    },

    status() {
      const at = now();
      return {
        projects: [...projects.values()].map((p) => ({
          namespace: p.namespace,
          pendingEvents: p.pendingCount,
          pendingBytes: p.pendingBytes,
          overCeiling: p.pendingBytes >= options.ceilingBytes,
          unbufferedEvents: p.unbuffered,
          extracting: p.running !== undefined,
          ...(p.next
            ? { next: { at: new Date(p.next.at).toISOString(), trigger: p.next.trigger } }
            : {}),
          breaker: p.breaker.snapshot(at),
          ...(p.lastRun ? { lastRun: p.lastRun } : {}),
        })),
      };
    },

    accepts(namespace) {
      return (projects.get(namespace)?.pendingBytes ?? 0) < options.ceilingBytes;
    },

    breakerState(namespace) {
      return projects.get(namespace)?.breaker.state(now());
    },

    onExtraction(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async drain() {
      closed = true;
      for (const p of projects.values()) {
        clearTimeout(p.timer);
        p.timer = undefined;
        p.next = undefined;
      }
      await Promise.all([...projects.values()].map((p) => p.running));
      await Promise.all(removals);
    },
  };
}
