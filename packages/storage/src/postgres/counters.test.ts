import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { event, onCleanup, record } from '../../test/helpers.js';
import type { StorageStats } from '../backend.js';
import { openPostgresStorage, type PostgresStorage } from './open.js';

const NAMESPACES = ['/actor/a/project/one/', '/actor/b/project/two/', '/actor/c/project/three/'];
const KINDS = ['prompt', 'tool_use', 'note'] as const;

async function open(schema: string, statementTimeoutMs?: number): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({
    url: inject('postgresUrl'),
    schema,
    ...(statementTimeoutMs !== undefined ? { statementTimeoutMs } : {}),
  });
  onCleanup(() => storage.close());
  return storage;
}

/** What stats must say, counted from the rows themselves. */
async function counted(storage: PostgresStorage): Promise<
  Omit<StorageStats, 'projects'> & {
    projects: Array<{ namespace: string; events: number; memories: number }>;
  }
> {
  const { rows: kinds } = await sql<{ kind: string; n: string }>`
    SELECT kind, count(*) AS n FROM events GROUP BY kind`.execute(storage.db);
  const { rows: types } = await sql<{ observation_type: string; n: string }>`
    SELECT observation_type, count(*) AS n FROM memory_records GROUP BY observation_type`.execute(
    storage.db,
  );
  const { rows: projects } = await sql<{ namespace: string; events: string; memories: string }>`
    SELECT namespace, sum(e) AS events, sum(m) AS memories FROM (
      SELECT namespace, 1 AS e, 0 AS m FROM events
      UNION ALL SELECT namespace, 0, 1 FROM memory_records
    ) t GROUP BY namespace ORDER BY namespace`.execute(storage.db);
  const byKind = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]));
  const byType = Object.fromEntries(types.map((t) => [t.observation_type, Number(t.n)]));
  const sum = (v: Record<string, number>) => Object.values(v).reduce((a, b) => a + b, 0);
  return {
    events: { total: sum(byKind), byKind },
    memories: { total: sum(byType), byType },
    projects: projects.map((p) => ({
      namespace: p.namespace,
      events: Number(p.events),
      memories: Number(p.memories),
    })),
  };
}

async function statsWithoutTimes(storage: PostgresStorage) {
  const stats = await storage.stats();
  return {
    ...stats,
    projects: stats.projects.map(({ namespace, events, memories }) => ({
      namespace,
      events,
      memories,
    })),
  };
}

describe('PostgreSQL counters (appended deltas)', () => {
  it('a writer holding its transaction open does not hold up another writer of the same namespace', async () => {
    const schema = freshSchema();
    // Before the counters were deltas the second write waited on the first one's locked
    // counter row until the statement timeout cancelled it.
    const storage = await open(schema, 3000);
    const client = new pg.Client({ connectionString: inject('postgresUrl') });
    await client.connect();
    onCleanup(() => client.end());
    await client.query(`SET search_path TO ${schema}`);
    await client.query('BEGIN');
    const held = event({ namespace: NAMESPACES[0] });
    await client.query(
      `INSERT INTO events (event_id, namespace, session_id, kind, valid_time, received_at, bytes, json)
       VALUES ($1, $2, 's', 'prompt', $3, $3, 2, '{}')`,
      [held.event_id, held.namespace, held.valid_time],
    );
    await storage.putRecord(record({ namespace: NAMESPACES[0] })); // a record write too
    await expect(storage.putEvent(event({ namespace: NAMESPACES[0] }))).resolves.toEqual({
      stored: true,
    });
    await client.query('COMMIT');
    expect((await storage.stats(NAMESPACES[0])).events.total).toBe(2);
  });

  it('stay exact under concurrent writers of two backends, compactions and a forget', async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([open(schema), open(schema)]);
    const write = async (storage: PostgresStorage, writer: number, namespaces = NAMESPACES) => {
      for (let round = 0; round < 15; round++) {
        const ns = namespaces[(round + writer) % namespaces.length]!;
        const session = `s-${writer}-${round % 3}`;
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            storage.putEvent(
              event({ namespace: ns, session_id: session, kind: KINDS[i % KINDS.length]! }),
              { pending: i % 2 === 0 },
            ),
          ),
        );
        const r = record({
          namespace: ns,
          observation_type: round % 2 === 0 ? 'discovery' : 'decision',
        });
        await storage.putRecord(r);
        if (round % 3 === 0)
          await storage.updateRecord(r.record_id, { observation_type: 'pattern' });
        if (round % 5 === 0) await storage.deleteRecord(r.record_id);
      }
    };
    const compacting = (async () => {
      let folds = 0;
      for (let i = 0; i < 10; i++) {
        await Promise.all([a.compactCounters(), b.compactCounters()]);
        folds++;
      }
      return folds;
    })();
    await Promise.all([write(a, 0), write(a, 1), write(b, 2), write(b, 3), compacting]);

    const truth = await counted(a);
    expect(truth.events.total).toBe(4 * 15 * 6);
    expect(await statsWithoutTimes(a)).toEqual(truth);
    expect(await statsWithoutTimes(b)).toEqual(truth);

    // Forget a session and a whole namespace while the other backend keeps writing (to
    // other namespaces: a forget races writers of its own scope, see the README).
    await Promise.all([
      a.forget({ session: 's-2-1' }),
      a.forget({ namespace: NAMESPACES[1]! }),
      write(b, 4, [NAMESPACES[0]!, NAMESPACES[2]!]),
      b.compactCounters(),
    ]);
    const after = await counted(a);
    expect(await statsWithoutTimes(b)).toEqual(after);
    for (const project of after.projects) {
      const one = await b.stats(project.namespace);
      expect([one.events.total, one.memories.total]).toEqual([project.events, project.memories]);
    }

    // Folded back: one row per key, the same totals.
    await expect(a.compactCounters()).resolves.toBe(true);
    expect(await statsWithoutTimes(a)).toEqual(after);
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM (SELECT namespace FROM namespace_counts GROUP BY namespace
        HAVING count(*) > 1) t`.execute(a.db);
    expect(Number(rows[0]?.n)).toBe(0);
    const forgotten = await a.forget({ all: true });
    expect(forgotten.events).toBe(after.events.total);
    await a.compactCounters();
    expect(await a.stats()).toEqual({
      events: { total: 0, byKind: {} },
      memories: { total: 0, byType: {} },
      projects: [],
    });
  });
});
