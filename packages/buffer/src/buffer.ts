import { randomUUID } from 'node:crypto';
import { isWindowReset } from '@kiro-learn/schema';
import { createBacklog } from './backlog.js';
import { createCompactionDriver } from './compaction/driver.js';
import { resolveCompactionOptions } from './compaction/options.js';
import { createBuiltinSummarizer } from './compaction/summarize.js';
import { estimateTokens } from './compaction/tokens.js';
import { BufferError } from './errors.js';
import { resolveOptions } from './options.js';
import { createRunner } from './run.js';
import { createScheduler } from './scheduler.js';
import type { CreateBufferInput, ExtractionRun, PendingBuffer, Trigger } from './types.js';

/** A project's watcher: the run in flight, and a trigger that fired meanwhile. */
interface Watch {
  running?: Promise<ExtractionRun | undefined>;
  again?: Trigger;
}

/**
 * Creates the buffer. Extraction is at-least-once and never loses an event: a batch's
 * pending entries are removed only by the same transaction that stores its records, and
 * events appended during a run are not in that batch, so they stay for the next one.
 *
 * Composed of small parts, each with its own state: the backlog (pending sizes, the
 * ceiling, parked entries), the scheduler (one timer per project), the compaction driver
 * (each project's summary chain) and the runner (claims, batches, breakers). What is left
 * here is the watcher: which trigger runs when, one run at a time per project.
 */
export function createBuffer(input: CreateBufferInput): PendingBuffer {
  const options = resolveOptions(input.options);
  const { storage } = input;
  const now = input.now ?? Date.now;
  const onError = input.onError ?? (() => {});
  const listeners = new Set<(run: ExtractionRun) => void>();
  const projects = new Map<string, Watch>();
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

  const backlog = createBacklog({ storage, ceilingBytes: options.ceilingBytes, onError });
  const compaction = createCompactionDriver({
    storage,
    options: resolveCompactionOptions(input.compaction),
    summarize: input.summarize ?? createBuiltinSummarizer(),
    countTokens: input.countTokens ?? estimateTokens,
    backlog,
    now,
  });
  const runner = createRunner({
    storage,
    extract: input.extract,
    options,
    backlog,
    compaction,
    owner: input.owner ?? `buffer-${randomUUID()}`,
    extractorName: input.extractorName,
    emit,
    closed: () => closed,
    now,
    onError,
  });
  const scheduler = createScheduler({
    now,
    fire: (namespace, trigger) => void fire(namespace, trigger),
  });

  function project(namespace: string): Watch {
    let w = projects.get(namespace);
    if (!w) {
      w = {};
      projects.set(namespace, w);
    }
    return w;
  }

  function fire(
    namespace: string,
    trigger: Trigger,
    force = false,
  ): Promise<ExtractionRun | undefined> {
    scheduler.cancel(namespace);
    if (closed) return Promise.resolve(undefined);
    const w = project(namespace);
    if (w.running) {
      w.again = trigger;
      return w.running;
    }
    const breaker = runner.breaker(namespace);
    const openUntil = breaker.openUntil();
    if (!force && breaker.state(now()) === 'open' && openUntil !== undefined) {
      scheduler.arm(namespace, openUntil - now(), 'retry');
      return Promise.resolve(undefined);
    }
    const running = runner.run(namespace, trigger).catch((error: unknown) => {
      onError(error);
      return undefined;
    });
    w.running = running;
    void running.then((run) => {
      w.running = undefined;
      afterRun(namespace, w);
      // Reported after the watcher re-armed, so a listener reading status() sees what comes next.
      if (run) emit(run);
    });
    return running;
  }

  /** Decides what a project's watcher does once a run finished. */
  function afterRun(namespace: string, w: Watch): void {
    if (closed) return;
    const again = w.again;
    w.again = undefined;
    if (runner.claimedElsewhere(namespace)) {
      // Another collector extracts this project; look again once its claim could have run out.
      scheduler.arm(namespace, Math.min(options.idleMs, options.claimTtlMs), 'retry');
    } else if (runner.lastRun(namespace)?.status === 'failed') {
      const breaker = runner.breaker(namespace);
      const openUntil = breaker.openUntil();
      if (breaker.state(now()) === 'open' && openUntil !== undefined)
        scheduler.arm(namespace, openUntil - now(), 'retry');
      else scheduler.arm(namespace, options.retryMs, 'retry');
    } else if (again) void fire(namespace, again);
    else if (backlog.pending(namespace).count > 0) scheduler.arm(namespace, options.idleMs, 'idle');
  }

  return {
    notify(event) {
      if (closed) return;
      const { namespace } = event;
      const w = project(namespace);
      if (!backlog.admit(event)) return;
      compaction.observe(event);
      // A turn's end, or the agent's context compacted: what it held is memory from now on.
      if (event.kind === 'session_summary' || isWindowReset(event))
        void fire(namespace, 'turn_end');
      else if (backlog.pending(namespace).bytes >= options.thresholdBytes) {
        void fire(namespace, 'threshold');
      } else if (!w.running) scheduler.arm(namespace, options.idleMs, 'idle');
    },

    async start() {
      if (closed) throw new BufferError('closed', 'the buffer was drained; create a new one');
      // Entries parked before a stop go back first, as far as the ceiling allows.
      const { parked, pending } = await backlog.restore();
      for (const namespace of parked) project(namespace);
      for (const summary of pending) {
        const w = project(summary.namespace);
        if (w.running) continue;
        // A turn that ended before the stop is extracted now; an unfinished one waits out its idle time.
        const newest = (await storage.listPending(summary.namespace)).at(-1);
        const ended =
          newest && (await storage.getEvent(newest.eventId))?.kind === 'session_summary';
        if (ended || summary.bytes >= options.thresholdBytes)
          void fire(summary.namespace, 'startup');
        else {
          scheduler.arm(
            summary.namespace,
            Date.parse(summary.newestAt) + options.idleMs - now(),
            'startup',
          );
        }
      }
    },

    async extractNow(namespace) {
      if (closed) throw new BufferError('closed', 'the buffer was drained; create a new one');
      const w = project(namespace);
      while (w.running) await w.running;
      await backlog.refresh(namespace);
      const run =
        backlog.pending(namespace).count > 0 ? await fire(namespace, 'manual', true) : undefined;
      if (!run && runner.claimedElsewhere(namespace)) {
        throw new BufferError('claimed', `another collector is extracting ${namespace} right now`);
      }
      if (!run) throw new BufferError('nothing_pending', `nothing is pending for ${namespace}`);
      return run;
    },

    status() {
      const at = now();
      return {
        projects: [...projects.entries()].map(([namespace, w]) => {
          const pending = backlog.pending(namespace);
          const next = scheduler.next(namespace);
          const lastRun = runner.lastRun(namespace);
          return {
            namespace,
            pendingEvents: pending.count,
            pendingBytes: pending.bytes,
            overCeiling: pending.bytes >= options.ceilingBytes,
            unbufferedEvents: backlog.unbuffered(namespace),
            extracting: w.running !== undefined,
            ...(next
              ? { next: { at: new Date(next.at).toISOString(), trigger: next.trigger } }
              : {}),
            breaker: runner.breaker(namespace).snapshot(at),
            ...(lastRun ? { lastRun } : {}),
            compaction: compaction.status(namespace),
          };
        }),
      };
    },

    accepts(namespace) {
      return backlog.accepts(namespace);
    },

    compactionStatus(namespace) {
      return compaction.load(namespace, projects.has(namespace));
    },

    breakerState(namespace) {
      return projects.has(namespace) ? runner.breaker(namespace).state(now()) : undefined;
    },

    onExtraction(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async drain() {
      closed = true;
      scheduler.close();
      await Promise.all([...projects.values()].map((w) => w.running));
      await backlog.settled();
    },
  };
}
