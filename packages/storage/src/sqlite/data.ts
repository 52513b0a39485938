import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DataStore, StoredEvent } from '../backend.js';
import { StorageError } from '../errors.js';
import { type SqliteContext, scanCursor } from './context.js';
import {
  countPrune,
  countScope,
  deletePrune,
  deleteScope,
  eraseTraces,
  namespacesOfDirectories,
} from './forget.js';
import { recordFromRow } from './rows.js';
import type { RecordRow } from './tables.js';

export interface SqliteDataSettings {
  /** How long erasing waits for other connections (the busy timeout), in ms. */
  busyTimeoutMs: number;
  /** Runs after a forget deleted rows (search drops its cached term counts). */
  afterForget(): void;
}

/** Your data: forget and prune (with their traces erased), scans for export, backups. */
export function sqliteData(ctx: SqliteContext, settings: SqliteDataSettings): DataStore {
  const { sqlite, writes, path } = ctx;

  async function erase(records: boolean): Promise<void> {
    if (path === ':memory:') return;
    if (!(await eraseTraces(sqlite, records, settings.busyTimeoutMs))) {
      throw new StorageError(
        'io',
        'the data is deleted, but the write-ahead log could not be truncated within a minute (another process holds the database open?): its old pages go at the next checkpoint; run the command again to retry now',
      );
    }
  }

  return {
    async countForget(scope) {
      ctx.ensureOpen();
      return countScope(sqlite, scope);
    },

    async forget(scope) {
      ctx.ensureOpen();
      const counts = await writes.enqueue(() => deleteScope(sqlite, scope));
      settings.afterForget();
      await erase(counts.records > 0);
      return counts;
    },

    async projectNamespaces(directories) {
      ctx.ensureOpen();
      return namespacesOfDirectories(sqlite, directories);
    },

    async pruneEvents(policy) {
      ctx.ensureOpen();
      if (policy.dryRun) return countPrune(sqlite, policy);
      const counts = await writes.enqueue(() => deletePrune(sqlite, policy));
      if (counts.events > 0) await erase(false);
      return counts;
    },

    async scanEvents(query) {
      ctx.ensureOpen();
      const after = scanCursor(query.cursor);
      const rows = sqlite
        .prepare(
          `SELECT seq, received_at, json FROM events WHERE seq > ?${query.namespace === undefined ? '' : ' AND namespace = ?'}
         ORDER BY seq LIMIT ?`,
        )
        .all(
          ...[after, ...(query.namespace === undefined ? [] : [query.namespace]), query.limit],
        ) as Array<{ seq: number; received_at: string; json: string }>;
      const last = rows.at(-1);
      return {
        items: rows.map((row): StoredEvent => ({ json: row.json, receivedAt: row.received_at })),
        ...(rows.length === query.limit && last ? { nextCursor: String(last.seq) } : {}),
      };
    },

    async scanRecords(query) {
      ctx.ensureOpen();
      const after = scanCursor(query.cursor);
      const rows = sqlite
        .prepare(
          `SELECT * FROM memory_records WHERE rid > ?${query.namespace === undefined ? '' : ' AND namespace = ?'}
         ORDER BY rid LIMIT ?`,
        )
        .all(
          ...[after, ...(query.namespace === undefined ? [] : [query.namespace]), query.limit],
        ) as RecordRow[];
      const last = rows.at(-1);
      return {
        items: rows.map(recordFromRow),
        ...(rows.length === query.limit && last ? { nextCursor: String(last.rid) } : {}),
      };
    },

    async backup(target, options = {}) {
      ctx.ensureOpen();
      if (path === ':memory:') {
        throw new StorageError('unsupported', 'an in-memory database has no file to back up');
      }
      const file = resolve(target);
      if ([path, `${path}-wal`, `${path}-shm`].includes(file)) {
        throw new StorageError('conflict', `${file} is the database itself: name another file`);
      }
      if (!options.overwrite && existsSync(file)) {
        throw new StorageError('conflict', `${file} exists; nothing was written`);
      }
      const dir = dirname(file);
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Into a temporary name first: a crash mid-copy never leaves a half backup behind
      // under the real name. SQLite's online backup copies a few pages per step and starts
      // over if another connection writes meanwhile; this connection's writes it follows.
      const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
      try {
        await sqlite.backup(partial, {
          // Throwing here ends the copy at its next step (better-sqlite3 closes it).
          progress: () => {
            options.signal?.throwIfAborted();
            return 1000;
          },
        });
        chmodSync(partial, 0o600);
        if (options.overwrite) renameSync(partial, file);
        else placeNew(partial, file);
      } catch (error) {
        rmSync(partial, { force: true });
        if (error instanceof StorageError) throw error;
        throw new StorageError('io', `cannot write the backup ${file}: ${String(error)}`, {
          cause: error,
        });
      }
      return { bytes: statSync(file).size };
    },
  };
}

/**
 * Moves `from` to `to` unless `to` exists, atomically where the file system has hard
 * links (a file created at `to` meanwhile is never replaced).
 */
function placeNew(from: string, to: string): void {
  try {
    linkSync(from, to);
    rmSync(from, { force: true });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new StorageError('conflict', `${to} exists; nothing was written`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
  }
  if (existsSync(to)) throw new StorageError('conflict', `${to} exists; nothing was written`);
  renameSync(from, to);
}
