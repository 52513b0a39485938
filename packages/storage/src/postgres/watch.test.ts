import { freshSchema } from '@kiro-learn/test-postgres';
import { describe, expect, inject, it } from 'vitest';
import { event, onCleanup } from '../../test/helpers.js';
import type { StoredEventNotice } from '../backend.js';
import { openPostgresStorage } from './open.js';

describe('PostgreSQL event feed', () => {
  it('tells a backend about events the others on its schema stored, and only those', async () => {
    const schema = freshSchema();
    const open = async (s: string) => {
      const storage = await openPostgresStorage({ url: inject('postgresUrl'), schema: s });
      onCleanup(() => storage.close());
      return storage;
    };
    const [a, b, elsewhere] = await Promise.all([open(schema), open(schema), open(freshSchema())]);
    const seen: StoredEventNotice[] = [];
    let done: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      done = resolve;
    });
    await b.watchEvents!((notice) => {
      seen.push(notice);
      if (seen.length === 2) done();
    });
    const first = event();
    const duplicate = { ...first };
    await a.putEvent(first);
    await a.putEvent(duplicate); // not stored: no notice
    await elsewhere.putEvent(event()); // another schema: not ours
    await b.putEvent(event()); // b's own: not told to b
    const second = event({ namespace: '/actor/bob/project/x/' });
    await a.putEvent(second);
    await arrived;
    // Notices arrive in commit order: anything wrongly announced would sit between these.
    expect(seen).toEqual([
      { eventId: first.event_id, namespace: first.namespace },
      { eventId: second.event_id, namespace: second.namespace },
    ]);
  });
});
