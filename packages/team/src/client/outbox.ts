import { type MemoryRecord, type Scrubber, scrubRecord } from '@kiro-learn/schema';
import type { OutboxEntry, StorageBackend } from '@kiro-learn/storage';
import { TeamError } from '../errors.js';
import type { TeamLogger } from '../host.js';
import type { TeamClient } from './client.js';

/** Retry pacing of the outbox while the team server cannot be reached. */
export interface OutboxTiming {
  /** How often an empty outbox is looked at again, in ms (writes also wake it). */
  pollMs: number;
  /** First wait after a failed push, in ms; doubled per failure. */
  retryMinMs: number;
  /** Longest wait between attempts, in ms. */
  retryMaxMs: number;
  /** Entries read per round. */
  batch: number;
}

/** Longest one push may take before it counts as failed (and is retried later). */
const PUSH_TIMEOUT_MS = 10_000;

export const OUTBOX_TIMING: Readonly<OutboxTiming> = Object.freeze({
  pollMs: 1000,
  retryMinMs: 1000,
  retryMaxMs: 60_000,
  batch: 100,
});

/** What the outbox has done lately, for `team status`. */
export interface OutboxState {
  /** ISO time of the last push the server acknowledged. */
  lastPushAt?: string;
  /** Why the last attempt failed, while it is failing. */
  lastError?: string;
  /** Records (puts and deletes) the server acknowledged since start. */
  pushed: number;
  /** Entries dropped because the server refused them for good (see the log). */
  refused: number;
}

export interface OutboxPusher {
  readonly state: OutboxState;
  /** Looks at the outbox now instead of at the next poll (or the end of a retry wait). */
  wake(): void;
  /** Pushes until the outbox is empty or a push fails; resolves true when it is empty. */
  drain(): Promise<boolean>;
  /** Stops after the push in flight. */
  stop(): Promise<void>;
}

/**
 * Pushes the team outbox to the server in order, one entry at a time: a put sends the
 * record as it is now (scrubbed with this user's patterns), with the entry's seq as its
 * revision, so a retry after a lost answer changes nothing there (the server keeps the
 * highest revision) and every edit's revision is higher than the last. Entries of one
 * record waiting together are pushed once (the last one). An entry leaves the outbox only
 * after the server acknowledged it: while the server is down or the laptop offline,
 * entries stay and are retried with exponential backoff, in order.
 */
export function startOutboxPusher(options: {
  storage: StorageBackend;
  client: TeamClient;
  scrubber: Scrubber;
  logger: TeamLogger;
  timing?: Partial<OutboxTiming>;
}): OutboxPusher {
  const { storage, client, scrubber, logger } = options;
  const timing = { ...OUTBOX_TIMING, ...options.timing };
  const state: OutboxState = { pushed: 0, refused: 0 };
  let stopped = false;
  let failures = 0;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let backingOff = false;
  let round: Promise<boolean> | undefined;
  // Shutdown cuts a push in flight (it stays queued) instead of waiting for a slow server.
  const stopping = new AbortController();
  const signal = () => AbortSignal.any([stopping.signal, AbortSignal.timeout(PUSH_TIMEOUT_MS)]);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  /** Pushes one record's entries (the last one counts); throws what the server said. */
  async function push(last: OutboxEntry, record: MemoryRecord | undefined): Promise<void> {
    if (last.op === 'delete') {
      await client.deleteRecord(last.recordId, signal());
      return;
    }
    // Gone or moved since: the delete queued with that change follows and says so. (An
    // edit after this read queued an entry of its own, which pushes the newer text.)
    if (!record || record.namespace !== last.namespace) return;
    const put = await client.putRecord(
      last.projectId,
      last.seq,
      scrubRecord(record, scrubber),
      signal(),
    );
    if (put.gone) {
      // Deleted on the server by its author or an admin: done, the local copy stays local.
      logger.info(
        'team: the server no longer takes this record (it was deleted from the team); it stays local only',
        { record_id: last.recordId },
      );
    }
  }

  /**
   * One pass over the outbox. True when it is empty, false when a push failed. Pushed
   * entries leave the outbox a batch at a time: should the collector die in between, they
   * are pushed again with the same revisions, which the server answers `stored: false`.
   */
  async function pass(): Promise<boolean> {
    const done: number[] = [];
    try {
      return await drainBatches(done);
    } finally {
      if (done.length > 0) await storage.sharing.completeOutbox(done);
    }
  }

  async function drainBatches(done: number[]): Promise<boolean> {
    for (;;) {
      if (stopped) return false;
      if (done.length > 0) await storage.sharing.completeOutbox(done.splice(0));
      const entries = await storage.sharing.nextOutbox(timing.batch);
      if (entries.length === 0) return true;
      const lastOf = new Map<string, OutboxEntry>();
      for (const entry of entries) lastOf.set(entry.recordId, entry);
      const puts = [...lastOf.values()].filter((e) => e.op === 'put').map((e) => e.recordId);
      const current = new Map(
        (await storage.getRecords(puts)).map((record) => [record.record_id, record]),
      );
      for (const entry of entries) {
        if (stopped) return false;
        const last = lastOf.get(entry.recordId)!;
        if (last !== entry) continue;
        const seqs = entries.filter((e) => e.recordId === entry.recordId).map((e) => e.seq);
        try {
          await push(last, current.get(last.recordId));
          state.pushed++;
          state.lastPushAt = new Date().toISOString();
          delete state.lastError;
          failures = 0;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (error instanceof TeamError && !error.retryable) {
            // Refused for good (another member's record id, a record the server finds
            // invalid): retrying cannot help, and it must not hold up every later entry.
            state.refused++;
            logger.warn('team: the server refused a shared record; it stays local only', {
              record_id: last.recordId,
              op: last.op,
              error: message,
            });
          } else {
            if (stopped) return false; // cut by shutdown: not the server's failure
            state.lastError = message;
            await storage.sharing.failOutbox(last.seq, message);
            return false;
          }
        }
        done.push(...seqs);
      }
    }
  }

  const once = (): Promise<boolean> => {
    round ??= pass().finally(() => {
      round = undefined;
    });
    return round;
  };

  const loop = (async () => {
    while (!stopped) {
      let empty: boolean;
      try {
        empty = await once();
      } catch (error) {
        // The local store failed (closing, busy): try again after a while.
        logger.warn('team: outbox pass failed', { error });
        empty = false;
      }
      if (stopped) break;
      if (empty) {
        await sleep(timing.pollMs);
        continue;
      }
      failures++;
      const backoff = Math.min(timing.retryMaxMs, timing.retryMinMs * 2 ** (failures - 1));
      // Jitter: a team's laptops coming back online together do not retry in step. New
      // writes do not cut the wait short (they would retry a down server at their pace).
      backingOff = true;
      await sleep(backoff * (0.75 + Math.random() * 0.5));
      backingOff = false;
    }
  })();

  return {
    state,
    wake() {
      if (backingOff) return;
      if (wakeUp) wakeUp();
      else woken = true;
    },
    drain: once,
    async stop() {
      stopped = true;
      stopping.abort();
      wakeUp?.();
      await loop;
    },
  };
}
