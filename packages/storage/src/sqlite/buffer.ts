import type { BufferStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { listPendingEntries, summariseParked, summarisePending } from '../portable.js';
import type { SqliteContext } from './context.js';
import { upsertRecord } from './records.js';
import { rowFromRecord } from './rows.js';
import type { WriteStatements } from './writes.js';

/** Synchronous: runs inside a write. Returns how many entries were removed. */
function removePending(w: WriteStatements, namespace: string, eventIds: readonly string[]) {
  let removed = 0;
  for (const id of eventIds) removed += w.deletePending.run(namespace, id).changes;
  return removed;
}

/**
 * The pending buffer: events waiting for extraction, per namespace, oldest first; and
 * the parked entries set aside (in order) when the buffer is over its byte limit.
 */
export function sqliteBuffer(ctx: SqliteContext): Required<BufferStore> {
  const { db, sqlite, w, writes } = ctx;
  return {
    async listPending(namespace, options = {}) {
      ctx.ensureOpen();
      return listPendingEntries(db, namespace, options.limit);
    },

    async pendingSummary() {
      ctx.ensureOpen();
      return summarisePending(db);
    },

    async removePending(namespace, eventIds) {
      ctx.ensureOpen();
      return writes.enqueue(() => removePending(w, namespace, eventIds));
    },

    async commitExtraction(commit) {
      ctx.ensureOpen();
      const rows = commit.records.map(rowFromRecord);
      const ids = [...new Set(commit.eventIds)];
      await writes.enqueue(() => {
        // Conditional on the batch still being pending: throwing rolls the records back, so
        // a batch another run (or another process) already committed is never stored twice.
        if (removePending(w, commit.namespace, ids) !== ids.length) {
          throw new StorageError(
            'stale_batch',
            `the batch's pending entries of ${commit.namespace} are gone: another run extracted them`,
          );
        }
        for (const row of rows) upsertRecord(w, row);
      });
    },

    async parkPending(namespace, eventIds) {
      ctx.ensureOpen();
      return writes.enqueue(() => {
        let parked = 0;
        for (const id of eventIds) {
          if (w.parkPending.run(namespace, id).changes === 0) continue;
          w.deletePending.run(namespace, id);
          parked++;
        }
        return parked;
      });
    },

    async requeueParked(namespace, maxPendingBytes) {
      ctx.ensureOpen();
      const pendingBytes = sqlite
        .prepare('SELECT coalesce(sum(bytes), 0) FROM pending WHERE namespace = ?')
        .pluck();
      return writes.enqueue(() => {
        let bytes = Number(pendingBytes.get(namespace));
        let moved = 0;
        for (;;) {
          const rows = w.unparkOldest.all(namespace) as Array<{
            event_id: string;
            seq: number;
            bytes: number;
            appended_at: string;
          }>;
          for (const row of rows) {
            // At least one entry moves into an empty buffer, however large.
            if (bytes > 0 && bytes + row.bytes > maxPendingBytes) return moved;
            w.insertPending.run(namespace, row.event_id, row.seq, row.bytes, row.appended_at);
            w.deleteParked.run(namespace, row.event_id);
            bytes += row.bytes;
            moved++;
          }
          if (rows.length === 0) return moved;
        }
      });
    },

    async parkedSummary() {
      ctx.ensureOpen();
      return summariseParked(db);
    },
  };
}
