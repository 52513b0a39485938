import { statSync } from 'node:fs';
import type { StatsStore } from '../backend.js';
import { statsFromCounters } from '../portable.js';
import type { SqliteContext } from './context.js';

/** Totals from the trigger-kept counters, and the database's size on disk. */
export function sqliteStats(ctx: SqliteContext): StatsStore {
  const { db, path } = ctx;
  return {
    async stats(namespace) {
      ctx.ensureOpen();
      let projectsQ = db.selectFrom('namespace_counts').selectAll();
      if (namespace !== undefined) projectsQ = projectsQ.where('namespace', '=', namespace);
      return statsFromCounters(db, namespace, projectsQ.orderBy('namespace').execute());
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
