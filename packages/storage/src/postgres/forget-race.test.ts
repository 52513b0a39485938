import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { event, onCleanup } from '../../test/helpers.js';
import { openPostgresStorage } from './open.js';

const NS = '/actor/a/project/one/';

describe('PostgreSQL forget while capture goes on', () => {
  it("an event's buffer entries go with it, so a forget racing a hook cannot fail on them", async () => {
    const storage = await openPostgresStorage({
      url: inject('postgresUrl'),
      schema: freshSchema(),
    });
    onCleanup(() => storage.close());
    // forget deletes buffer entries, then events, each statement seeing what is committed
    // by then: a hook's event stored with its entries in between is deleted in the second
    // step with its entries still there. That step, by hand:
    const pending = event({ namespace: NS });
    const parked = event({ namespace: NS });
    await storage.putEvent(pending, { pending: true });
    await storage.putEvent(parked, { pending: true });
    expect(await storage.parkPending!(NS, [parked.event_id])).toBe(1);
    await sql`DELETE FROM events WHERE namespace = ${NS}`.execute(storage.db);
    expect(await storage.listPending(NS)).toEqual([]);
    expect(await storage.parkedSummary!()).toEqual([]);
    // And a forget of the project afterwards has nothing left to trip on.
    await storage.putEvent(event({ namespace: NS }), { pending: true });
    await expect(storage.forget({ namespace: NS })).resolves.toMatchObject({ events: 1 });
  });
});
