import { newEventId } from '@kiro-learn/schema';
import { freshDatabase, freshSchema, schemaFilesHolding } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { event, onCleanup, record } from '../../test/helpers.js';
import { openPostgresTemp } from '../../test/postgres.js';

const NS = '/actor/a/project/one/';

/**
 * A database for one compacting test alone: a compacting forget waits for every older
 * transaction of its database (up to its limit), and the run's other test files share the
 * run's database; on a loaded run one of theirs outlasted the wait.
 */
async function ownDatabase(): Promise<string> {
  const db = await freshDatabase(inject('postgresUrl'));
  onCleanup(() => db.drop());
  return db.url;
}

describe('PostgreSQL forget while capture goes on', () => {
  it("an event's buffer entries go with it, so a forget racing a hook cannot fail on them", async () => {
    const storage = await openPostgresTemp();
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

describe('PostgreSQL forget racing an extraction', () => {
  it('leaves no record made from forgotten events when the commit lands mid-forget', async () => {
    const url = inject('postgresUrl');
    const schema = freshSchema();
    const storage = await openPostgresTemp({ schema });
    const e = event({ namespace: NS });
    await storage.putEvent(e, { pending: true });
    // A gate inside the extraction's transaction: its record insert waits for an advisory
    // lock this test holds, after the commit has taken the batch's pending entries.
    await sql
      .raw(
        `CREATE FUNCTION "${schema}".gate() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN PERFORM pg_advisory_xact_lock_shared(4242); RETURN NEW; END $$;
         CREATE TRIGGER gate BEFORE INSERT ON "${schema}".memory_records
           FOR EACH ROW EXECUTE FUNCTION "${schema}".gate();`,
      )
      .execute(storage.db);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    onCleanup(() => holder.end());
    await holder.query('SELECT pg_advisory_lock(4242)');
    const waiting = async (what: string) => {
      for (let i = 0; i < 400; i++) {
        const { rows } = await holder.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = $1`,
          [what],
        );
        if (Number(rows[0]?.n) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`nothing waited on ${what}`);
    };

    const made = record({ namespace: NS, source_event_ids: [e.event_id] });
    const commit = storage.commitExtraction({
      namespace: NS,
      records: [made],
      eventIds: [e.event_id],
    });
    await waiting('advisory');
    const forget = storage.forget({ namespace: NS });
    // The forget now waits on the extraction's transaction (the pending entry it holds).
    await waiting('transactionid');
    await holder.query('SELECT pg_advisory_unlock(4242)');
    await commit;
    await forget;
    expect(await storage.getRecord(made.record_id)).toBeUndefined();
    expect(await storage.getEvent(e.event_id)).toBeUndefined();
    expect((await storage.stats()).projects).toEqual([]);
  });
});

describe('PostgreSQL forget with compact', () => {
  it('rewrites the touched tables: the text leaves the table files, which plain delete leaves', async () => {
    const url = await ownDatabase();
    const schema = freshSchema();
    const storage = await openPostgresTemp({ url, schema });
    const OTHER = '/actor/a/project/other/';
    for (let i = 0; i < 50; i++) {
      await storage.putEvent(event({ namespace: OTHER }), { pending: true });
      await storage.putRecord(record({ namespace: OTHER, summary: `kept note w${i}x` }));
    }
    const plant = async () => {
      const secret = `zq${newEventId().toLowerCase()}`;
      const e = event({ namespace: NS, body: { type: 'text', content: `key ${secret}` } });
      await storage.putEvent(e, { pending: true });
      await storage.putRecord(
        record({ namespace: NS, summary: `the key ${secret}`, source_event_ids: [e.event_id] }),
      );
      await storage.logRetrieval({
        namespace: NS,
        eventId: e.event_id,
        query: `what is ${secret}`,
        recordIds: [],
        scores: [],
        latencyMs: 1,
        timedOut: false,
        budgetCut: false,
      });
      return secret;
    };
    const kept = await plant();
    await storage.forget({ namespace: NS });
    // Deleted rows' bytes stay in the files' free space: this is what compact is for.
    expect(await schemaFilesHolding(url, schema, kept)).not.toEqual([]);
    const secret = await plant();
    await storage.forget({ namespace: NS }, { compact: true });
    expect(await schemaFilesHolding(url, schema, secret)).toEqual([]);
    expect(await schemaFilesHolding(url, schema, kept)).toEqual([]);
    expect((await storage.stats()).projects).toMatchObject([
      { namespace: OTHER, events: 50, memories: 50 },
    ]);
    const hits = await storage.searchRecords({ query: 'w7x', namespace: OTHER, limit: 1 });
    expect(hits[0]?.record.summary).toBe('kept note w7x');
  });
});

describe('PostgreSQL forget with compact while another session is in a transaction', () => {
  // Another session of the database (a teammate's collector, a psql prompt, another
  // schema's work) in a transaction begun before the forget: the deleted rows are still
  // visible to it. It holds no lock on our tables, so VACUUM FULL would not wait for it
  // by itself, and would copy the rows it can see into the new files.
  // A session of another database of the server counts too once it has written (holds a
  // transaction id): every snapshot taken while it runs, VACUUM FULL's own included, has
  // an xmin no newer than its id, so the rewrite keeps the rows as "recently dead". (One
  // that only reads does not hold it back.) On a loaded CI run, other test files' writes
  // in their own databases did exactly this.
  it.each([
    ['reading with a snapshot of its own', ['BEGIN ISOLATION LEVEL REPEATABLE READ', 'SELECT 1']],
    ['idle after a write, without a snapshot', ['BEGIN', 'SELECT txid_current()']],
    ['of another database, after a write', ['BEGIN', 'SELECT txid_current()'], 'elsewhere'],
  ])('waits for one %s, then rewrites the rows away', async (_, statements, where?: string) => {
    const url = await ownDatabase();
    const schema = freshSchema();
    const storage = await openPostgresTemp({ url, schema });
    const secret = `zq${newEventId().toLowerCase()}`;
    await storage.putRecord(record({ namespace: NS, summary: `the key ${secret}` }));
    const other = new pg.Client({
      connectionString: where === 'elsewhere' ? await ownDatabase() : url,
    });
    await other.connect();
    onCleanup(() => other.end());
    for (const statement of statements) await other.query(statement);
    let compacted = false;
    const forget = storage.forget({ namespace: NS }, { compact: true }).then((counts) => {
      compacted = true;
      return counts;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(compacted).toBe(false);
    await other.query('COMMIT');
    await expect(forget).resolves.toMatchObject({ records: 1, compacted: true });
    expect(await schemaFilesHolding(url, schema, secret)).toEqual([]);
  });

  it('says so when the older transaction outlasts the wait: the text may stay in the files', async () => {
    const url = await ownDatabase();
    const schema = freshSchema();
    const storage = await openPostgresTemp({ url, schema });
    const secret = `zq${newEventId().toLowerCase()}`;
    await storage.putRecord(record({ namespace: NS, summary: `the key ${secret}` }));
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    onCleanup(() => other.end());
    await other.query('BEGIN');
    await other.query('SELECT txid_current()');
    await expect(
      storage.forget({ namespace: NS }, { compact: true, compactWaitMs: 200 }),
    ).resolves.toMatchObject({ records: 1, compacted: false });
    // Gone for every query at once; the bytes wait for a compaction after it ends.
    expect(await storage.searchRecords({ query: secret, namespace: NS, limit: 1 })).toEqual([]);
    expect(await schemaFilesHolding(url, schema, secret)).not.toEqual([]);
    await other.query('COMMIT');
    await expect(storage.forget({ namespace: NS }, { compact: true })).resolves.toMatchObject({
      records: 0,
      compacted: true,
    });
    expect(await schemaFilesHolding(url, schema, secret)).toEqual([]);
  });
});
