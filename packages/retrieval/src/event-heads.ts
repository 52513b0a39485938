/**
 * Event heads read at most once per retrieval. A prompt asks for the heads of records' first
 * and last source events twice: the working set (the project's newest records: which are
 * this session's) and the filter of records the session still holds (the ranked hits). The
 * two often name the same events (the session's own newest records rank high), and on a team
 * server each read is a round trip on the shared pool: the second asks only for what the
 * first did not. Scoped to one retrieval, so an event stored or forgotten since is seen by
 * the next prompt exactly as before.
 */
import type { EventHead, StorageBackend } from '@kiro-learn/storage';

/** Heads of these events, in the order asked, missing ones left out (as getEventHeads). */
export type HeadsReader = (eventIds: readonly string[]) => Promise<EventHead[]>;

/** A reader that remembers, for its lifetime, every head it read and every id it found missing. */
export function headsOnce(storage: Pick<StorageBackend, 'getEventHeads'>): HeadsReader {
  const known = new Map<string, EventHead | null>();
  return async (eventIds) => {
    const unknown = [...new Set(eventIds)].filter((id) => !known.has(id));
    if (unknown.length > 0) {
      const found = await storage.getEventHeads(unknown);
      for (const id of unknown) if (!known.has(id)) known.set(id, null);
      for (const head of found) known.set(head.eventId, head);
    }
    return eventIds.flatMap((id) => known.get(id) ?? []);
  };
}
