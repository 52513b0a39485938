import type { Event } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { Backlog } from '../backlog.js';
import type { Batch } from '../batch.js';
import type { CompactionStatus } from '../types.js';
import { type ChainHead, loadHead } from './chain.js';
import { retentionKind } from './classify.js';
import { type Compacted, compactBatch } from './compact.js';
import { type CompactionOptions, policyOf } from './options.js';
import type { SummarizeFn } from './summarize.js';
import { eventTokens, type TokenCounter } from './tokens.js';

/**
 * Compaction across a project's batches: its summary chain's head (read from storage once),
 * passes so far, and whether the last over-budget batch had nothing left to reclaim (then
 * the next batches are not tried again until a compactable event arrives).
 */
export interface CompactionDriver {
  /**
   * Compacts a batch whose prompt is over `triggerTokens`; undefined when it is not (or
   * compaction is off, or the last try found nothing to reclaim and no newer event came).
   * Rejects when the summarizer failed (passes stored before the failure are kept).
   */
  compact(namespace: string, batch: Batch): Promise<Compacted | undefined>;
  /** A newly buffered event: a compactable one makes an exhausted project worth trying again. */
  observe(event: Event): void;
  /** The project's compaction state as known now (no storage read). */
  status(namespace: string): CompactionStatus;
  /**
   * The project's compaction state, its chain head read from storage when not known yet.
   * `remember`: keep what was read (a project the buffer follows).
   */
  load(namespace: string, remember: boolean): Promise<CompactionStatus>;
}

interface ChainState {
  /** The summary chain's head; undefined until read from storage, null when there is none. */
  head?: ChainHead | null;
  passes: number;
  exhausted?: { at: number; tokens: number; through: string };
  error?: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createCompactionDriver(options: {
  storage: StorageBackend;
  options: CompactionOptions;
  summarize: SummarizeFn;
  countTokens: TokenCounter;
  /** The projects' pending counts (the protected tail counts the newest pending events). */
  backlog: Backlog;
  now: () => number;
}): CompactionDriver {
  const { storage, summarize, countTokens, backlog, now } = options;
  const compaction = options.options;
  const chains = new Map<string, ChainState>();

  function chain(namespace: string): ChainState {
    let c = chains.get(namespace);
    if (!c) {
      c = { passes: 0 };
      chains.set(namespace, c);
    }
    return c;
  }

  function statusOf(c: ChainState): CompactionStatus {
    const head = c.head ?? undefined;
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
      passes: c.passes,
      ...(c.exhausted
        ? { exhausted: { at: new Date(c.exhausted.at).toISOString(), tokens: c.exhausted.tokens } }
        : {}),
      ...(c.error ? { lastError: c.error } : {}),
    };
  }

  return {
    async compact(namespace, batch) {
      if (!compaction.enabled || batch.events.length === 0) return undefined;
      const c = chain(namespace);
      const newest = batch.events.at(-1)!.event_id;
      if (c.exhausted && newest <= c.exhausted.through) return undefined;
      const tokens = batch.events.reduce(
        (total, e) => total + eventTokens(e, countTokens, compaction.eventOverheadTokens),
        0,
      );
      if (tokens <= compaction.triggerTokens) return undefined;
      await backlog.refresh(namespace);
      // The newest `protectedTail` pending events of the project, as far as they are in this batch.
      const after = Math.max(0, backlog.pending(namespace).count - batch.eventIds.length);
      const tailFrom = batch.events.length - Math.max(0, compaction.protectedTail - after);
      if (c.head === undefined) c.head = (await loadHead(storage, namespace)) ?? null;
      try {
        const compacted = await compactBatch({
          storage,
          namespace,
          events: batch.events,
          eventIds: batch.eventIds,
          tailFrom,
          options: compaction,
          summarize,
          countTokens,
          head: c.head ?? undefined,
          now,
        });
        c.head = compacted.head ?? null;
        c.passes += compacted.report.passes;
        c.error = undefined;
        c.exhausted = compacted.report.exhausted
          ? { at: now(), tokens, through: newest }
          : undefined;
        return compacted;
      } catch (error) {
        c.error = message(error);
        // Passes that succeeded before the failure are stored: the chain continues from them.
        c.head = undefined;
        throw error;
      }
    },

    observe(event) {
      const c = chains.get(event.namespace);
      if (!c?.exhausted) return;
      const policy = policyOf(retentionKind(event), compaction);
      if (policy !== 'critical' && policy !== 'keep_full') c.exhausted = undefined;
    },

    status(namespace) {
      return statusOf(chains.get(namespace) ?? { passes: 0 });
    },

    async load(namespace, remember) {
      if (!remember && !chains.has(namespace)) {
        return statusOf({ head: await loadHead(storage, namespace), passes: 0 });
      }
      const c = chain(namespace);
      if (c.head === undefined) c.head = (await loadHead(storage, namespace)) ?? null;
      return statusOf(c);
    },
  };
}
