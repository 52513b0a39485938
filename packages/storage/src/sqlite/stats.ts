import { statSync } from 'node:fs';
import type { StorageBackend } from '../backend.js';
import type { SqliteContext } from './context.js';

export type StatsMethods = Pick<StorageBackend, 'stats' | 'sizeBytes'>;

/** Totals from the trigger-kept counters, and the database's size on disk. */
export function sqliteStats(ctx: SqliteContext): StatsMethods {
  const { db, path } = ctx;
  return {
    async stats(namespace) {
      ctx.ensureOpen();
      let projectsQ = db.selectFrom('namespace_counts').selectAll();
      let kindsQ = db
        .selectFrom('kind_counts')
        .select((eb) => ['kind', eb.fn.sum<number>('n').as('n')])
        .groupBy('kind');
      let typesQ = db
        .selectFrom('type_counts')
        .select((eb) => ['observation_type', eb.fn.sum<number>('n').as('n')])
        .groupBy('observation_type');
      if (namespace !== undefined) {
        projectsQ = projectsQ.where('namespace', '=', namespace);
        kindsQ = kindsQ.where('namespace', '=', namespace);
        typesQ = typesQ.where('namespace', '=', namespace);
      }
      const [projects, kinds, types] = await Promise.all([
        projectsQ.orderBy('namespace').execute(),
        kindsQ.execute(),
        typesQ.execute(),
      ]);
      const byKind = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]));
      const byType = Object.fromEntries(
        types.filter((t) => Number(t.n) > 0).map((t) => [t.observation_type, Number(t.n)]),
      );
      const sum = (values: Record<string, number>) =>
        Object.values(values).reduce((a, b) => a + b, 0);
      return {
        events: { total: sum(byKind), byKind },
        memories: { total: sum(byType), byType },
        projects: projects.map((p) => ({
          namespace: p.namespace,
          events: p.events,
          memories: p.memories,
          ...(p.last_event_at !== null ? { lastEventAt: p.last_event_at } : {}),
        })),
      };
    },

    async sizeBytes() {
      if (path === ':memory:') return 0;
      let total = 0;
      for (const suffix of ['', '-wal', '-shm']) {
        try {
          total += statSync(path + suffix).size;
        } catch {
          // no such file: WAL not created yet
        }
      }
      return total;
    },
  };
}
