import type { ExtractionLogInput, StorageBackend } from '@kiro-learn/storage';
import type { Backlog } from './backlog.js';
import { buildBatch } from './batch.js';
import { type Breaker, createBreaker } from './breaker.js';
import type { CompactionReport } from './compaction/compact.js';
import type { CompactionDriver } from './compaction/driver.js';
import { BufferError } from './errors.js';
import type { BufferOptions } from './options.js';
import type { ExtractFn, ExtractionRun, ExtractOutcome, Trigger } from './types.js';

/**
 * One extraction of a project: while holding its claim, batch after batch (compacted when
 * over budget) through `extract`, each committed with the removal of its pending entries
 * in one transaction, until nothing is left or a batch fails. Keeps each project's
 * circuit breaker and last run.
 */
export interface Runner {
  /**
   * Runs the project's batches; resolves with the last run, or undefined when there was
   * nothing to extract or another collector holds the project's claim.
   */
  run(namespace: string, trigger: Trigger): Promise<ExtractionRun | undefined>;
  /** The project's circuit breaker (created closed on first use). */
  breaker(namespace: string): Breaker;
  /** The project's last finished run. */
  lastRun(namespace: string): ExtractionRun | undefined;
  /** Whether the project's last run found another collector holding its claim. */
  claimedElsewhere(namespace: string): boolean;
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

interface RunState {
  breaker: Breaker;
  lastRun?: ExtractionRun;
  claimedElsewhere?: boolean;
}

export function createRunner(input: {
  storage: StorageBackend;
  extract: ExtractFn;
  options: Readonly<BufferOptions>;
  backlog: Backlog;
  compaction: CompactionDriver;
  /** Who claims extractions (storage.claimExtraction). */
  owner: string;
  /** Extractor name logged when the outcome names none. */
  extractorName: string | undefined;
  /** Told about each finished run but the last of a `run` (the caller reports that one). */
  emit: (run: ExtractionRun) => void;
  /** True once the buffer is drained: no further batch starts. */
  closed: () => boolean;
  now: () => number;
  onError: (error: unknown) => void;
}): Runner {
  const { storage, extract, options, backlog, compaction, owner, emit, closed, now, onError } =
    input;
  const states = new Map<string, RunState>();

  function state(namespace: string): RunState {
    let s = states.get(namespace);
    if (!s) {
      s = {
        breaker: createBreaker({
          failures: options.breakerFailures,
          backoffMs: options.breakerBackoffMs,
          maxBackoffMs: options.breakerMaxBackoffMs,
        }),
      };
      states.set(namespace, s);
    }
    return s;
  }

  /**
   * Runs the project's batches while holding its extraction claim (renewed in the
   * background); another collector holding it means nothing to do here for now.
   */
  async function run(namespace: string, trigger: Trigger): Promise<ExtractionRun | undefined> {
    const s = state(namespace);
    s.claimedElsewhere = !(await storage.claimExtraction(namespace, owner, options.claimTtlMs));
    if (s.claimedElsewhere) return undefined;
    const renew = setInterval(() => {
      storage.claimExtraction(namespace, owner, options.claimTtlMs).catch(onError);
    }, options.claimTtlMs / 3);
    renew.unref();
    try {
      return await claimedBatches(namespace, s, trigger);
    } finally {
      clearInterval(renew);
      await storage.releaseExtraction(namespace, owner).catch(onError);
    }
  }

  async function claimedBatches(
    namespace: string,
    s: RunState,
    trigger: Trigger,
  ): Promise<ExtractionRun | undefined> {
    let run: ExtractionRun | undefined;
    let reason = trigger;
    let more = true;
    while (more && !closed()) {
      if (run) emit(run);
      const startedAt = now();
      const batch = await buildBatch(storage, namespace, {
        maxBytes: options.maxBatchBytes,
        maxEvents: options.maxBatchEvents,
      });
      if (batch.eventIds.length === 0) {
        if (backlog.hasParked(namespace) && (await backlog.requeue(namespace)) > 0) continue;
        // Another collector extracted it meanwhile: forget the stale counts.
        await backlog.refresh(namespace).catch(onError);
        break;
      }
      more = batch.more;
      let outcome: ExtractOutcome | undefined;
      let failure: unknown;
      let report: CompactionReport | undefined;
      try {
        const compacted = await compaction.compact(namespace, batch);
        report = compacted?.report;
        const events = compacted?.events ?? batch.events;
        const eventIds = compacted?.eventIds ?? batch.eventIds;
        outcome =
          eventIds.length === 0
            ? { records: [] }
            : await extract({
                namespace,
                events,
                trigger: reason,
                ...(compacted?.summary ? { summary: compacted.summary } : {}),
              });
        const foreign = outcome.records.find((record) => record.namespace !== namespace);
        if (foreign) {
          throw new BufferError(
            'foreign_record',
            `the extractor returned a record of ${foreign.namespace} for ${namespace}`,
          );
        }
        // The claim may have run out during a stalled run and another collector taken
        // the batch: then this one must not store it too.
        if (!(await storage.claimExtraction(namespace, owner, options.claimTtlMs))) {
          throw new BufferError(
            'claimed',
            `another collector took over extracting ${namespace} (this run outlasted its claim)`,
          );
        }
        await storage.commitExtraction({ namespace, records: outcome.records, eventIds });
        s.breaker.success();
      } catch (error) {
        failure = error;
        // A batch someone else committed meanwhile is no fault of the extractor.
        if (!isStaleBatch(error)) s.breaker.failure(now());
      }
      const records = failure === undefined ? (outcome?.records ?? []) : [];
      // Summary records written by passes are stored even when a later step failed.
      const recordIds = [...(report?.recordIds ?? []), ...records.map((r) => r.record_id)];
      const entry: ExtractionLogInput = {
        namespace,
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
        breaker: s.breaker.snapshot(now()),
        ...(report ? { compaction: report } : {}),
      };
      s.lastRun = run;
      await backlog.refresh(namespace).catch(onError);
      await storage.logExtraction(entry).catch(onError);
      if (failure !== undefined) break;
      reason = 'backlog';
      // The backlog drained below the ceiling: what was parked past it goes next.
      if (!more && backlog.hasParked(namespace)) more = (await backlog.requeue(namespace)) > 0;
    }
    return run;
  }

  return {
    run,
    breaker: (namespace) => state(namespace).breaker,
    lastRun: (namespace) => states.get(namespace)?.lastRun,
    claimedElsewhere: (namespace) => states.get(namespace)?.claimedElsewhere === true,
  };
}
