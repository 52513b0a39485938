import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { line, oneFile } from './args.js';
import { answerError, bar, linkCollector, progress } from './link.js';
import type { Command } from './types.js';

interface Report {
  added: { events: number; records: number };
  skipped: { events: number; records: number };
  rejected: Array<{ line: number; reason: string }>;
  rejected_total: number;
  complete: boolean;
}

export const importCommand: Command = {
  name: 'import',
  summary: 'read an export file back in (idempotent: importing twice adds nothing)',
  usage: `kiro-learn import FILE

Reads a kiro-learn export (kiro-learn export) into this data dir, validated and privacy-
scrubbed like every write. What is already here (same ids) is skipped; a corrupt or cut-off
line is reported and skipped. Prints what was added, skipped and rejected, and why.
Exit code 1 when any line was rejected or the file is cut off.`,
  async run(args, io) {
    const file = oneFile(
      'import',
      args,
      io.cwd,
      'export file, e.g. kiro-learn import kiro-learn-export.jsonl',
    );
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      line(io.stderr, `kiro-learn import: ${file} does not exist or cannot be read`);
      return 1;
    }
    const link = await linkCollector(io);
    try {
      const shown = progress(io.stderr);
      let read = 0;
      const body = Readable.toWeb(
        createReadStream(file).map((chunk: Buffer) => {
          read += chunk.length;
          shown.update(`importing ${bar(size ? read / size : 1)}`);
          return chunk;
        }),
      );
      const response = await link.request('/v1/import', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson' },
        body: body as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      shown.done();
      const report = (await response.json().catch(() => ({}))) as Report & { error?: string };
      if (!response.ok) throw answerError(response.status, report);
      line(
        io.stdout,
        `added ${report.added.events} events and ${report.added.records} memories; skipped ${report.skipped.events} events and ${report.skipped.records} memories already here; rejected ${report.rejected_total} lines`,
      );
      for (const r of report.rejected.slice(0, 20))
        line(io.stdout, `  line ${r.line}: ${r.reason}`);
      if (report.rejected_total > 20) line(io.stdout, `  … and ${report.rejected_total - 20} more`);
      if (!report.complete) {
        line(
          io.stdout,
          'the file ends before its end line: it may be cut off (what was read is imported; export again and re-import to get the rest)',
        );
      }
      return report.rejected_total > 0 || !report.complete ? 1 : 0;
    } finally {
      await link.close();
    }
  },
};
