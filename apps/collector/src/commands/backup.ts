import { resolve } from 'node:path';
import { line, parseCommandArgs } from './args.js';
import { linkCollector } from './link.js';
import type { Command } from './types.js';

export const backup: Command = {
  name: 'backup',
  summary: 'copy the database consistently, even while the collector runs',
  usage: `kiro-learn backup [FILE]

Writes a consistent copy of the database (SQLite's online backup: writes go on meanwhile)
to FILE, or to backups/kiro-learn-<time>.db in the data dir. Restore it with
kiro-learn restore FILE. The collector also keeps daily backups (setting backup.keep).`,
  async run(args, io) {
    const { positionals } = parseCommandArgs('backup', args, {}, true);
    const path = positionals[0] === undefined ? undefined : resolve(io.cwd, positionals[0]);
    const link = await linkCollector(io);
    try {
      const done = await link.json<{ path: string; bytes: number }>(
        'POST',
        '/v1/backup',
        path ? { path } : {},
      );
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
