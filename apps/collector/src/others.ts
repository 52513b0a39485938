/**
 * Events other collectors store in the same database (PostgreSQL), for this collector's
 * live feed only. Watching is not free: while any backend watches, every writer on the
 * database announces each batch it commits (a NOTIFY, and a read here per event too large
 * to travel in the notice). So the collector watches only while someone reads its
 * `/v1/stream`, and stops a little after the last reader leaves. The buffer does not need
 * these events: each collector extracts what it stored, and claims keep two from
 * extracting one batch.
 */
import type { Event } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { Logger } from './log/logger.js';

/** How long the watch outlives its last reader (a page reload should not re-subscribe). */
const LINGER_MS = 10_000;

export interface OthersFeed {
  /**
   * Starts watching (once listening, so events stored from then on arrive) for one reader;
   * the result ends that reader's interest. Never throws: without a watch the feed has
   * this collector's own events only.
   */
  acquire(): Promise<() => void>;
  /** Stops watching. */
  close(): Promise<void>;
}

export function createOthersFeed(
  storage: Pick<StorageBackend, 'watchEvents' | 'getEvent'>,
  publish: (event: Event) => void,
  logger: Logger,
): OthersFeed {
  let readers = 0;
  let watching: Promise<(() => Promise<void>) | undefined> | undefined;
  let linger: NodeJS.Timeout | undefined;
  let closed = false;

  const start = () =>
    storage.watchEvents!((notice) => {
      if (notice.event) {
        publish(notice.event);
        return;
      }
      storage.getEvent(notice.eventId).then(
        (event) => {
          if (event && !closed) publish(event);
        },
        (error: unknown) =>
          logger.warn('could not read an event another collector stored', { error }),
      );
    }).catch((error: unknown) => {
      logger.warn('the live feed shows only this collector’s events: could not watch the others', {
        error,
      });
      watching = undefined;
      return undefined;
    });

  const stop = async () => {
    const stopping = watching;
    watching = undefined;
    await (await stopping)?.();
  };

  return {
    async acquire() {
      if (!storage.watchEvents || closed) return () => {};
      readers++;
      clearTimeout(linger);
      watching ??= start();
      await watching;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--readers > 0 || closed) return;
        linger = setTimeout(() => void stop(), LINGER_MS);
        linger.unref();
      };
    },
    async close() {
      closed = true;
      clearTimeout(linger);
      await stop();
    },
  };
}
