// Event heads read once per retrieval, on a real SQLite store: the same answers as the
// storage gives, each id asked of it once (found or missing); a session's reader answers
// from the session's events read with the working set.
import { newEventId } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import { event as testEvent } from '@kiro-learn/test-harness/events';
import { describe, expect, it } from 'vitest';
import { openTemp } from '../test/helpers.js';
import { headsOnce, sessionHeads } from './event-heads.js';

const event = (session_id: string) => testEvent({ session_id });

describe('headsOnce', () => {
  it('answers as getEventHeads does and asks the storage only for ids it has not seen', async () => {
    const storage = await openTemp();
    const [a, b, c] = [event('s1'), event('s1'), event('s2')];
    for (const e of [a, b, c]) await storage.putEvent(e);
    const asked: string[][] = [];
    const counting: Pick<StorageBackend, 'getEventHeads'> = {
      getEventHeads: (ids) => {
        asked.push([...ids]);
        return storage.getEventHeads(ids);
      },
    };
    const heads = headsOnce(counting);
    const gone = newEventId();
    const first = [a.event_id, gone, b.event_id, a.event_id];
    expect(await heads(first)).toEqual(await storage.getEventHeads(first));
    const second = [c.event_id, gone, b.event_id];
    expect(await heads(second)).toEqual(await storage.getEventHeads(second));
    expect(await heads([gone, a.event_id])).toEqual(
      await storage.getEventHeads([gone, a.event_id]),
    );
    expect(asked).toEqual([[a.event_id, gone, b.event_id], [c.event_id]]);
  });
});

describe('sessionHeads', () => {
  it("answers which events are the session's from its sessionReads, reading others only past them", async () => {
    const storage = await openTemp();
    const [a, b, c, d] = [event('s1'), event('s2'), event('s1'), event('s1')];
    for (const e of [a, b, c, d]) await storage.putEvent(e);
    const asked: string[][] = [];
    const counting: Pick<StorageBackend, 'getEventHeads'> = {
      getEventHeads: (ids) => {
        asked.push([...ids]);
        return storage.getEventHeads(ids);
      },
    };
    const mine = (heads: { sessionId: string; eventId: string }[]) =>
      heads.filter((head) => head.sessionId === 's1').map((head) => head.eventId);
    const ids = [d.event_id, b.event_id, newEventId(), a.event_id];
    const expected = mine(await storage.getEventHeads(ids));
    expect(expected).toEqual([d.event_id, a.event_id]);

    // Every event of the session read: nothing else is asked.
    const all = storage.sessionReads({
      namespace: a.namespace,
      sessionId: 's1',
      records: 0,
      events: 10,
    });
    expect(mine(await sessionHeads(all, counting)(ids))).toEqual(expected);
    expect(asked).toEqual([]);

    // The newest two only: the others are read, once.
    const newest = storage.sessionReads({
      namespace: a.namespace,
      sessionId: 's1',
      records: 0,
      events: 2,
    });
    const heads = sessionHeads(newest, counting);
    expect(mine(await heads(ids))).toEqual(expected);
    expect(mine(await heads(ids))).toEqual(expected);
    expect(asked).toEqual([[b.event_id, ids[2], a.event_id]]);

    // The read failed: every id is read as headsOnce reads it.
    asked.length = 0;
    expect(mine(await sessionHeads(Promise.resolve(undefined), counting)(ids))).toEqual(expected);
    expect(asked).toEqual([ids]);
  });
});
