/**
 * The search index's backlog (StorageBackend.impactBacklog: records not yet in the
 * impact-ordered postings) for `status`, `/metrics` and the viewer's health screen.
 *
 * Counting is a scan of the queue on both backends (SQLite: on the event loop's own
 * connection), so a non-zero count is kept for a few seconds and concurrent callers share
 * one read: a scrape every second costs at most one count per `ttlMs`. An empty queue is
 * cheap to count (SQLite: an empty table; PostgreSQL remembers it emptied), so 0 is read
 * afresh and a backlog that comes back (a bulk import) shows at once.
 */

import type { SearchStore } from '@kiro-learn/storage';

const TTL_MS = 5000;

export function searchBacklog(
  storage: Pick<SearchStore, 'impactBacklog'>,
  ttlMs = TTL_MS,
): () => Promise<number> {
  if (!storage.impactBacklog) return async () => 0;
  const read = () => storage.impactBacklog?.() ?? Promise.resolve(0);
  let last = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<number> | undefined;
  return () => {
    if (last > 0 && Date.now() - readAt < ttlMs) return Promise.resolve(last);
    reading ??= read()
      .then(
        (n) => {
          last = n;
          readAt = Date.now();
          return n;
        },
        // A database that does not answer is said elsewhere (storage health): keep the last count.
        () => last,
      )
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
}
