import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { line, parseCommandArgs } from './args.js';
import { linkCollector } from './link.js';
import type { Command } from './types.js';

export const backup: Command = {
  name: 'backup',
  summary: 'copy the database consistently, even while the collector runs',
  usage: `kiro-learn backup [FILE] [--force]

Writes a consistent copy of the database (SQLite's online backup: writes go on meanwhile)
to FILE, or to backups/kiro-learn-<time>.db in the data dir. An existing FILE is kept
unless --force replaces it. The copy goes to a temporary file first and is renamed into
place, so FILE never holds half a copy. Restore it with kiro-learn restore FILE. The
collector also keeps daily backups (setting backup.keep).`,
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(
      'backup',
      args,
      { force: { type: 'boolean' } },
      true,
    );
    const path = positionals[0] === undefined ? undefined : resolve(io.cwd, positionals[0]);
    if (path !== undefined && existsSync(path) && !values.force) {
      line(
        io.stderr,
        `kiro-learn backup: ${path} exists; name another file, or pass --force to replace it`,
      );
      return 1;
    }
    const link = await linkCollector(io);
    try {
      const done = await link.json<{ path: string; bytes: number }>('POST', '/v1/backup', {
        ...(path ? { path } : {}),
        ...(values.force ? { force: true } : {}),
      });
      line(
        io.stdout,
        `backup written to ${done.path} (${(done.bytes / 1024 / 1024).toFixed(1)} MB)`,
      );
      return 0;
    } finally {
      await link.close();
    }
  },
};
