import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { ensureDataDir } from '@kiro-learn/schema/node';
import { openSqliteStorage } from '@kiro-learn/storage';
import { loadSettings } from '../config/load.js';
import { cliAddress, probe } from '../lifecycle/client.js';
import { daemonFiles } from '../lifecycle/files.js';
import { line, oneFile } from './args.js';
import type { Command } from './types.js';

export const restore: Command = {
  name: 'restore',
  summary: 'put a backup back in place of the database (collector stopped)',
  usage: `kiro-learn restore FILE

Replaces the database with the backup FILE (kiro-learn backup). Refuses while the
collector runs: stop it first. The database it replaces is kept beside it as
kiro-learn.db.before-restore-<time>.`,
  async run(args, io) {
    const file = oneFile(
      'restore',
      args,
      io.cwd,
      'backup file, e.g. kiro-learn restore ~/.kiro-learn/backups/daily-20261123T030000Z.db',
    );
    const address = cliAddress(io.env);
    if (loadSettings(io.env).config?.storage.url !== undefined) {
      line(
        io.stderr,
        'kiro-learn restore: this collector keeps its data in PostgreSQL (storage.url); restore that database with its own tools (pg_restore)',
      );
      return 1;
    }
    if ((await probe(address)).ok) {
      line(
        io.stderr,
        `kiro-learn restore: the collector is running at ${address.baseUrl}; stop it first (kiro-learn stop), then restore`,
      );
      return 1;
    }
    if (!existsSync(file)) {
      line(io.stderr, `kiro-learn restore: ${file} does not exist`);
      return 1;
    }
    const { database } = daemonFiles(ensureDataDir(address.home));
    // Check the copy, not the backup: opening migrates a backup from an older version.
    const incoming = `${database}.restoring`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(incoming + suffix, { force: true });
    copyFileSync(file, incoming);
    let totals: { events: number; memories: number };
    try {
      const storage = await openSqliteStorage({ path: incoming });
      try {
        const stats = await storage.stats();
        totals = { events: stats.events.total, memories: stats.memories.total };
      } finally {
        await storage.close();
      }
    } catch (error) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(incoming + suffix, { force: true });
      line(
        io.stderr,
        `kiro-learn restore: ${file} is not a kiro-learn database backup (${(error as Error).message}); nothing changed`,
      );
      return 1;
    }
    let aside: string | undefined;
    if (existsSync(database)) {
      aside = `${database}.before-restore-${new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '')}`;
      // The WAL travels with its database: SQLite finds it by name beside the file.
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(database + suffix)) renameSync(database + suffix, aside + suffix);
      }
    }
    renameSync(incoming, database);
    line(
      io.stdout,
      `restored ${file}: ${totals.events} events, ${totals.memories} memories${aside ? `; the previous database is kept at ${aside}` : ''}`,
    );
    return 0;
  },
};
