import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { event, onCleanup } from '../../test/helpers.js';
import { openPostgresTemp } from '../../test/postgres.js';
import { StorageError } from '../errors.js';

describe('PostgreSQL event writes', () => {
  it('store events again after the database ended every connection of the backend', async () => {
    const storage = await openPostgresTemp();
    await storage.putEvent(event());
    const admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    onCleanup(() => admin.end());
    // What a failover or an administrator's pg_terminate_backend does to a collector.
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND application_name LIKE 'kiro-learn/%'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    // An event sent before the backend noticed may fail `unavailable` (the hook retries
    // it); one of the next few is stored, on a new connection.
    const failures: unknown[] = [];
    let stored = false;
    for (let attempt = 0; attempt < 5 && !stored; attempt++) {
      const next = event();
      try {
        expect(await storage.putEvent(next)).toEqual({ stored: true });
        expect(await storage.getEvent(next.event_id)).toEqual(next);
        stored = true;
      } catch (error) {
        failures.push(error);
      }
    }
    expect(stored).toBe(true);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(StorageError);
      expect((failure as StorageError).code).toBe('unavailable');
    }
  });

  it('store an event whose session id holds a lone surrogate, found by that id, its JSON unchanged', async () => {
    const storage = await openPostgresTemp();
    const odd = event({ session_id: 'tab\ud800-1' });
    const plain = event();
    // One batch: the odd event neither fails nor delays its neighbour.
    const results = await Promise.all([storage.putEvent(odd), storage.putEvent(plain)]);
    expect(results).toEqual([{ stored: true }, { stored: true }]);
    expect(await storage.getEventJson(odd.event_id)).toBe(JSON.stringify(odd));
    const page = await storage.listEvents({ sessionId: odd.session_id, limit: 10 });
    expect(page.items.map((e) => e.event_id)).toEqual([odd.event_id]);
  });
});
