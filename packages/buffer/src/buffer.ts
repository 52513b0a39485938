import { randomUUID } from 'node:crypto';
import type { Event, MemoryRecord } from '@kiro-learn/schema';
import type { ExtractionLogInput, StorageBackend } from '@kiro-learn/storage';
import { type Batch, buildBatch } from './batch.js';
import { type Breaker, type BreakerSnapshot, type BreakerState, createBreaker } from './breaker.js';
import { type ChainHead, loadHead } from './compaction/chain.js';
import { retentionKind } from './compaction/classify.js';
import { type CompactionReport, compactBatch } from './compaction/compact.js';
import {
  type CompactionOptions,
  policyOf,
  resolveCompactionOptions,
} from './compaction/options.js';
import { createBuiltinSummarizer, type SummarizeFn } from './compaction/summarize.js';
import { estimateTokens, eventTokens, type TokenCounter } from './compaction/tokens.js';
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
  /**
   * When the batch was compacted: the summary of older events (the chain head), to put
   * before the events. Reduced events are one-line markers naming their id.
   */
  summary?: string;
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
  /** What compaction did to this batch, when its prompt was over `triggerTokens`. */
  compaction?: CompactionReport;
}

/** A project's summary chain and compaction state, for `status`, `/metrics` and the viewer. */
export interface CompactionStatus {
  enabled: boolean;
  /** The newest summary record: its id, pass, mode, the events it covers, tokens before/after. */
  head?: {
    recordId: string;
    pass: number;
    mode: ChainHead['mode'];
    range: ChainHead['range'];
    tokens: ChainHead['tokens'];
    facts: number;
    repairs: string[];
    createdAt: string;
  };
  /** Summarizer passes since start. */
  passes: number;
  /** Set when the last over-budget batch had nothing to reclaim; a newer compactable event clears it. */
  exhausted?: { at: string; tokens: number };
  /** Why the last compaction failed (it is retried with the breaker's back-off). */
  lastError?: string;
}

/** One project's buffer, as `status()` reports it. */
export interface ProjectStatus {
  namespace: string;
  pendingEvents: number;
  pendingBytes: number;
  /** Pending bytes are at the ceiling: new events are stored but not buffered. */
  overCeiling: boolean;
  /**
   * Events parked past the ceiling since start: stored, out of the buffer until its
   * backlog drains, then re-queued (oldest first) and extracted.
   */
  unbufferedEvents: number;
  /** An extraction is running now. */
  extracting: boolean;
  /** When the watcher fires next (ISO), and why. */
  next?: { at: string; trigger: Trigger };
  breaker: BreakerSnapshot;
  lastRun?: ExtractionRun;
  compaction: CompactionStatus;
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
  /** Compaction settings; defaults in COMPACTION_DEFAULTS. */
  compaction?: Partial<CompactionOptions>;
  /** Folds archived events into the summary chain (e.g. the ACP extractor's `summarize`); model-free rules when omitted. */
  summarize?: SummarizeFn;
  /** Counts prompt tokens; estimateTokens when omitted. */
  countTokens?: TokenCounter;
  /** Extractor name logged when the outcome names none. */
  extractorName?: string;
  /**
   * Who claims extractions (storage.claimExtraction): one id per collector process, so
   * collectors sharing a database never extract one batch twice. Random when omitted.
   */
  owner?: string;
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
   * idle timer. Past the ceiling the event is parked (it stays stored, leaves the buffer)
   * and re-queued once the project's backlog drains below the ceiling.
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
  /** A project's summary chain and compaction state (reads the chain head from storage once). */
  compactionStatus(namespace: string): Promise<CompactionStatus>;
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
  /** Entries parked past the ceiling and not yet re-queued (as far as this buffer knows). */
  parked: number;
  breaker: Breaker;
  timer?: NodeJS.Timeout;
  next?: { at: number; trigger: Trigger };
  running?: Promise<ExtractionRun | undefined>;
  /** A trigger that fired while a run was in flight. */
  again?: Trigger;
  /** The last run found another collector holding the project's claim. */
  claimedElsewhere?: boolean;
  lastRun?: ExtractionRun;
  /** The summary chain's head; undefined until read from storage, null when there is none. */
  head?: ChainHead | null;
  passes: number;
  exhausted?: { at: number; tokens: number; through: string };
  compactionError?: string;
}

/** StorageError `stale_batch` (checked by code: the buffer needs only storage's types). */
const isStaleBatch = (error: unknown) =>
  (error as { code?: unknown } | undefined)?.code === 'stale_batch';

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
  const compaction = resolveCompactionOptions(input.compaction);
  const summarize = input.summarize ?? createBuiltinSummarizer();
  const countTokens = input.countTokens ?? estimateTokens;
  const { storage, extract } = input;
  const owner = input.owner ?? `buffer-${randomUUID()}`;
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
        parked: 0,
        passes: 0,
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
    if (p.claimedElsewhere) {
      // Another collector extracts this project; look again once its claim could have run out.
      arm(p, Math.min(options.idleMs, options.claimTtlMs), 'retry');
    } else if (p.lastRun?.status === 'failed') {
      const openUntil = p.breaker.openUntil();
      if (p.breaker.state(now()) === 'open' && openUntil !== undefined)
        arm(p, openUntil - now(), 'retry');
      else arm(p, options.retryMs, 'retry');
    } else if (again) void fire(p, again);
    else if (p.pendingCount > 0) arm(p, options.idleMs, 'idle');
  }

  /**
   * Compacts a batch whose prompt is over `triggerTokens`; undefined when it is not (or
   * compaction is off, or the last try found nothing to reclaim and no newer event came).
   */
  async function compact(p: Project, batch: Batch) {
    if (!compaction.enabled || batch.events.length === 0) return undefined;
    const newest = batch.events.at(-1)!.event_id;
    if (p.exhausted && newest <= p.exhausted.through) return undefined;
    const tokens = batch.events.reduce(
      (total, e) => total + eventTokens(e, countTokens, compaction.eventOverheadTokens),
      0,
    );
    if (tokens <= compaction.triggerTokens) return undefined;
    await refresh(p);
    // The newest `protectedTail` pending events of the project, as far as they are in this batch.
    const after = Math.max(0, p.pendingCount - batch.eventIds.length);
    const tailFrom = batch.events.length - Math.max(0, compaction.protectedTail - after);
    if (p.head === undefined) p.head = (await loadHead(storage, p.namespace)) ?? null;
    try {
      const compacted = await compactBatch({
        storage,
        namespace: p.namespace,
        events: batch.events,
        eventIds: batch.eventIds,
        tailFrom,
        options: compaction,
        summarize,
        countTokens,
        head: p.head ?? undefined,
        now,
      });
      p.head = compacted.head ?? null;
      p.passes += compacted.report.passes;
      p.compactionError = undefined;
      p.exhausted = compacted.report.exhausted ? { at: now(), tokens, through: newest } : undefined;
      return compacted;
    } catch (error) {
      p.compactionError = message(error);
      // Passes that succeeded before the failure are stored: the chain continues from them.
      p.head = undefined;
      throw error;
    }
  }

  function compactionOf(
    p: Pick<Project, 'head' | 'passes' | 'exhausted' | 'compactionError'>,
  ): CompactionStatus {
    const head = p.head ?? undefined;
    return {
      enabled: compaction.enabled,
      ...(head
        ? {
            head: {
              recordId: head.recordId,
              pass: head.pass,
              mode: head.mode,
              range: head.range,
              tokens: head.tokens,
              facts: Object.keys(head.facts).length,
              repairs: head.repairs,
              createdAt: head.createdAt,
            },
          }
        : {}),
      passes: p.passes,
      ...(p.exhausted
        ? { exhausted: { at: new Date(p.exhausted.at).toISOString(), tokens: p.exhausted.tokens } }
        : {}),
      ...(p.compactionError ? { lastError: p.compactionError } : {}),
    };
  }

  /**
   * Runs the project's batches while holding its extraction claim (renewed in the
   * background); another collector holding it means nothing to do here for now.
   */
  async function runBatches(p: Project, trigger: Trigger): Promise<ExtractionRun | undefined> {
    p.claimedElsewhere = !(await storage.claimExtraction(p.namespace, owner, options.claimTtlMs));
    if (p.claimedElsewhere) return undefined;
    const renew = setInterval(() => {
      storage.claimExtraction(p.namespace, owner, options.claimTtlMs).catch(onError);
    }, options.claimTtlMs / 3);
    renew.unref();
    try {
      return await claimedBatches(p, trigger);
    } finally {
      clearInterval(renew);
      await storage.releaseExtraction(p.namespace, owner).catch(onError);
    }
  }

  async function claimedBatches(p: Project, trigger: Trigger): Promise<ExtractionRun | undefined> {
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
      if (batch.eventIds.length === 0) {
        if (p.parked > 0 && (await requeue(p)) > 0) continue;
        // Another collector extracted it meanwhile: forget the stale counts.
        await refresh(p).catch(onError);
        break;
      }
      more = batch.more;
      let outcome: ExtractOutcome | undefined;
      let failure: unknown;
      let report: CompactionReport | undefined;
      try {
        const compacted = await compact(p, batch);
        report = compacted?.report;
        const events = compacted?.events ?? batch.events;
        const eventIds = compacted?.eventIds ?? batch.eventIds;
        outcome =
          eventIds.length === 0
            ? { records: [] }
            : await extract({
                namespace: p.namespace,
                events,
                trigger: reason,
                ...(compacted?.summary ? { summary: compacted.summary } : {}),
              });
        const foreign = outcome.records.find((record) => record.namespace !== p.namespace);
        if (foreign) {
          throw new BufferError(
            'foreign_record',
            `the extractor returned a record of ${foreign.namespace} for ${p.namespace}`,
          );
        }
        // The claim may have run out during a stalled run and another collector taken
        // the batch: then this one must not store it too.
        if (!(await storage.claimExtraction(p.namespace, owner, options.claimTtlMs))) {
          throw new BufferError(
            'claimed',
            `another collector took over extracting ${p.namespace} (this run outlasted its claim)`,
          );
        }
        await storage.commitExtraction({
          namespace: p.namespace,
          records: outcome.records,
          eventIds,
        });
        p.breaker.success();
      } catch (error) {
        failure = error;
        // A batch someone else committed meanwhile is no fault of the extractor.
        if (!isStaleBatch(error)) p.breaker.failure(now());
      }
      const records = failure === undefined ? (outcome?.records ?? []) : [];
      // Summary records written by passes are stored even when a later step failed.
      const recordIds = [...(report?.recordIds ?? []), ...records.map((r) => r.record_id)];
      const entry: ExtractionLogInput = {
        namespace: p.namespace,
        extractor: outcome?.extractor ?? input.extractorName ?? 'extract',
        status: failure !== undefined ? 'failed' : recordIds.length > 0 ? 'ok' : 'skipped',
        batchSize: batch.eventIds.length,
        records: recordIds.length,
        attempts: outcome?.attempts ?? attemptsOf(failure),
        durationMs: Math.max(0, now() - startedAt),
        startedAt: new Date(startedAt).toISOString(),
        ...(failure !== undefined ? { error: message(failure) } : {}),
      };
      run = {
        ...entry,
        trigger: reason,
        recordIds,
        breaker: p.breaker.snapshot(now()),
        ...(report ? { compaction: report } : {}),
      };
      p.lastRun = run;
      await refresh(p).catch(onError);
      await storage.logExtraction(entry).catch(onError);
      if (failure !== undefined) break;
      reason = 'backlog';
      // The backlog drained below the ceiling: what was parked past it goes next.
      if (!more && p.parked > 0) more = (await requeue(p)) > 0;
    }
    return run;
  }

  /** Moves parked entries back into the project's buffer, up to the ceiling. */
  async function requeue(p: Project): Promise<number> {
    try {
      if (!storage.requeueParked) return 0;
      const moved = await storage.requeueParked(p.namespace, options.ceilingBytes);
      p.parked = Math.max(0, p.parked - moved);
      if (moved > 0) await refresh(p);
      return moved;
    } catch (error) {
      onError(error);
      return 0;
    }
  }

  return {
    notify(event) {
      if (closed) return;
      const p = project(event.namespace);
      if (p.pendingBytes >= options.ceilingBytes) {
        p.unbuffered++;
        if (storage.parkPending) p.parked++;
        const removal = (
          storage.parkPending
            ? storage.parkPending(event.namespace, [event.event_id])
            : storage.removePending(event.namespace, [event.event_id])
        ).then(() => {}, onError);
        removals.add(removal);
        void removal.finally(() => removals.delete(removal));
        return;
      }
      p.pendingCount++;
      p.pendingBytes += Buffer.byteLength(JSON.stringify(event));
      if (p.exhausted) {
        const policy = policyOf(retentionKind(event), compaction);
        if (policy !== 'critical' && policy !== 'keep_full') p.exhausted = undefined;
      }
      if (event.kind === 'session_summary') void fire(p, 'turn_end');
      else if (p.pendingBytes >= options.thresholdBytes) void fire(p, 'threshold');
      else if (!p.running) arm(p, options.idleMs, 'idle');
    },

    async start() {
      if (closed) throw new BufferError('closed', 'the buffer was drained; create a new one');
      // Entries parked before a stop go back first, as far as the ceiling allows.
      for (const parked of (await storage.parkedSummary?.()) ?? []) {
        const p = project(parked.namespace);
        p.parked = parked.count;
        await requeue(p);
      }
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
      if (!run && p.claimedElsewhere) {
        throw new BufferError('claimed', `another collector is extracting ${namespace} right now`);
      }
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
          compaction: compactionOf(p),
        })),
      };
    },

    accepts(namespace) {
      return (projects.get(namespace)?.pendingBytes ?? 0) < options.ceilingBytes;
    },

    async compactionStatus(namespace) {
      const p = projects.get(namespace);
      if (!p) return compactionOf({ head: await loadHead(storage, namespace), passes: 0 });
      if (p.head === undefined) p.head = (await loadHead(storage, namespace)) ?? null;
      return compactionOf(p);
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
