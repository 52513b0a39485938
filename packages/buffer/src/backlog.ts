import type { Event } from '@kiro-learn/schema';
import type { PendingSummary, StorageBackend } from '@kiro-learn/storage';

/** A project's pending entries as the buffer last counted them. */
export interface PendingSize {
  count: number;
  bytes: number;
}

/**
 * Each project's backlog: its pending count and bytes (kept in step with notify, and read
 * again from storage after every change the buffer did not see), and the ceiling past
 * which new events are parked (stored, set aside in order) instead of buffered, until the
 * backlog drains and they are re-queued.
 */
export interface Backlog {
  /** Pending count and bytes as last known (zero for a project never seen). */
  pending(namespace: string): PendingSize;
  /** False while a project is at or past the ceiling. */
  accepts(namespace: string): boolean;
  /**
   * Counts an event stored with a pending entry; past the ceiling, parks its entry
   * instead (or, on a backend that cannot park, drops it from the buffer) and answers
   * false. Never throws, never waits.
   */
  admit(event: Event): boolean;
  /** Events parked or dropped past the ceiling since start. */
  unbuffered(namespace: string): number;
  /** Whether entries parked past the ceiling wait to be re-queued (as far as this buffer knows). */
  hasParked(namespace: string): boolean;
  /** Reads the project's pending count and bytes from storage. */
  refresh(namespace: string): Promise<void>;
  /** Moves parked entries back into the project's buffer, up to the ceiling. Returns how many. */
  requeue(namespace: string): Promise<number>;
  /**
   * At start: re-queues what was parked before a stop, as far as the ceiling allows, then
   * reads every project's pending summary. Returns the projects that had parked entries,
   * and the pending summary.
   */
  restore(): Promise<{ parked: string[]; pending: PendingSummary[] }>;
  /** Resolves when the parks and drops started so far have finished. */
  settled(): Promise<void>;
}

interface Counts extends PendingSize {
  unbuffered: number;
  parked: number;
}

export function createBacklog(options: {
  storage: StorageBackend;
  /** Pending bytes past which events are parked (BufferOptions.ceilingBytes). */
  ceilingBytes: number;
  /** Receives errors nobody awaits. */
  onError: (error: unknown) => void;
}): Backlog {
  const { storage, ceilingBytes, onError } = options;
  const projects = new Map<string, Counts>();
  const removals = new Set<Promise<void>>();

  function counts(namespace: string): Counts {
    let c = projects.get(namespace);
    if (!c) {
      c = { count: 0, bytes: 0, unbuffered: 0, parked: 0 };
      projects.set(namespace, c);
    }
    return c;
  }

  async function refresh(namespace: string): Promise<void> {
    const summary = (await storage.pendingSummary()).find((s) => s.namespace === namespace);
    const c = counts(namespace);
    c.count = summary?.count ?? 0;
    c.bytes = summary?.bytes ?? 0;
  }

  async function requeue(namespace: string): Promise<number> {
    try {
      if (!storage.requeueParked) return 0;
      const moved = await storage.requeueParked(namespace, ceilingBytes);
      const c = counts(namespace);
      c.parked = Math.max(0, c.parked - moved);
      if (moved > 0) await refresh(namespace);
      return moved;
    } catch (error) {
      onError(error);
      return 0;
    }
  }

  return {
    pending(namespace) {
      const c = projects.get(namespace);
      return { count: c?.count ?? 0, bytes: c?.bytes ?? 0 };
    },

    accepts(namespace) {
      return (projects.get(namespace)?.bytes ?? 0) < ceilingBytes;
    },

    admit(event) {
      const c = counts(event.namespace);
      if (c.bytes >= ceilingBytes) {
        c.unbuffered++;
        if (storage.parkPending) c.parked++;
        const removal = (
          storage.parkPending
            ? storage.parkPending(event.namespace, [event.event_id])
            : storage.removePending(event.namespace, [event.event_id])
        ).then(() => {}, onError);
        removals.add(removal);
        void removal.finally(() => removals.delete(removal));
        return false;
      }
      c.count++;
      c.bytes += Buffer.byteLength(JSON.stringify(event));
      return true;
    },

    unbuffered(namespace) {
      return projects.get(namespace)?.unbuffered ?? 0;
    },

    hasParked(namespace) {
      return (projects.get(namespace)?.parked ?? 0) > 0;
    },

    refresh,
    requeue,

    async restore() {
      const parked: string[] = [];
      for (const summary of (await storage.parkedSummary?.()) ?? []) {
        parked.push(summary.namespace);
        counts(summary.namespace).parked = summary.count;
        await requeue(summary.namespace);
      }
      const pending = await storage.pendingSummary();
      for (const summary of pending) {
        const c = counts(summary.namespace);
        c.count = summary.count;
        c.bytes = summary.bytes;
      }
      return { parked, pending };
    },

    async settled() {
      await Promise.all(removals);
    },
  };
}
