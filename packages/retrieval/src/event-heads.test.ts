// Event heads read once per retrieval, on a real SQLite store: the same answers as the
// storage gives, each id asked of it once (found or missing).
import { newEventId } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import { event as testEvent } from '@kiro-learn/test-harness/events';
import { describe, expect, it } from 'vitest';
import { openTemp } from '../test/helpers.js';
import { headsOnce } from './event-heads.js';

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
