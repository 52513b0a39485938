/**
 * Event heads read at most once per retrieval. A prompt asks which session a record's first
 * and last source events came from twice: the working set (the project's newest records:
 * which are this session's) and the filter of records the session still holds (the ranked
 * hits). On a team server each read is a round trip on the shared pool, so a prompt with a
 * session reads the session's newest events with the project's newest records in one
 * statement (sessionReads) and asks about no other event unless the session has more events
 * than that read took. Scoped to one retrieval, so an event stored or forgotten since is seen
 * by the next prompt exactly as before.
 */
import type { EventHead, SessionReads, StorageBackend } from '@kiro-learn/storage';

/**
 * Heads of these events, in the order asked, missing ones left out (as getEventHeads). A
 * session's reader (sessionHeads) may leave out the heads of events of other sessions too:
 * callers ask only which events are the session's.
 */
export type HeadsReader = (eventIds: readonly string[]) => Promise<EventHead[]>;

/** The session's newest events read with the working set: enough for most sessions. */
export const SESSION_EVENTS = 500;

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

/**
 * A session's reader over its sessionReads: an event among the session's events read is
 * answered from them; when they were all of the session's events, any other event is not
 * the session's and needs no read; else (a longer session, or the read failed) it is read
 * as headsOnce reads it.
 */
export function sessionHeads(
  reads: Promise<SessionReads | undefined>,
  storage: Pick<StorageBackend, 'getEventHeads'>,
): HeadsReader {
  const others = headsOnce(storage);
  return async (eventIds) => {
    const read = await reads;
    if (!read) return others(eventIds);
    const own = new Map(read.events.map((head) => [head.eventId, head]));
    const unknown = read.complete ? [] : eventIds.filter((id) => !own.has(id));
    const found = new Map(
      (unknown.length === 0 ? [] : await others(unknown)).map((head) => [head.eventId, head]),
    );
    return eventIds.flatMap((id) => own.get(id) ?? found.get(id) ?? []);
  };
}
