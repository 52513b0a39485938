import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { line, parseCommandArgs } from './args.js';
import { answerError, bar, linkCollector, progress, projectNamespace } from './link.js';
import type { Command } from './types.js';

export const exportCommand: Command = {
  name: 'export',
  summary: 'write events and memories to a JSON Lines file (all, or one project)',
  usage: `kiro-learn export [--project DIR] [--out FILE]

Writes a versioned JSON Lines export: a header line (format version, kiro-learn version,
counts), every event as stored, every memory record, and an end line. Streams: memory
stays flat however much there is. Without --out it goes to standard output.
  --project DIR   only the project at DIR
  --out FILE      the file to write (replaced once the export is complete)`,
  async run(args, io) {
    const { values } = parseCommandArgs('export', args, {
      project: { type: 'string' },
      out: { type: 'string', short: 'o' },
    });
    const namespace =
      values.project === undefined ? undefined : projectNamespace(io, values.project).namespace;
    const link = await linkCollector(io);
    try {
      const response = await link.request(
        `/v1/export${namespace ? `?namespace=${encodeURIComponent(namespace)}` : ''}`,
      );
      if (!response.ok || !response.body) {
        throw answerError(response.status, (await response.json().catch(() => ({}))) as object);
      }
      const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
      const shown = progress(io.stderr);
      let total = 0;
      let lines = 0;
      let first = '';
      const counted = Readable.fromWeb(response.body as never).map((chunk: Buffer) => {
        if (total === 0 && first.length < 4096) {
          first += chunk.toString('utf8', 0, Math.min(chunk.length, 4096));
          const header = first.split('\n', 1)[0]!;
          if (first.includes('\n')) {
            const counts = (JSON.parse(header) as { counts?: { events: number; records: number } })
              .counts;
            total = (counts?.events ?? 0) + (counts?.records ?? 0) || 1;
          }
        }
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        shown.update(`exporting ${bar(Math.min(1, lines / (total + 2)))} ${lines - 1} of ${total}`);
        return chunk;
      });
      if (out === undefined) {
        await pipeline(counted, io.stdout, { end: false });
        shown.done();
        return 0;
      }
      const partial = `${out}.partial`;
      try {
        await pipeline(counted, createWriteStream(partial, { mode: 0o600 }));
        renameSync(partial, out);
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      } finally {
        shown.done();
      }
      const end = lines >= 2 ? 'complete' : 'empty';
      line(io.stdout, `exported ${Math.max(0, lines - 2)} events and memories to ${out} (${end})`);
      return 0;
    } finally {
      await link.close();
    }
  },
};
