import {
  formatIssues,
  LIMITS,
  type MemoryRecord,
  parseNamespace,
  teamNamespace,
} from '@kiro-learn/schema';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { CollectorError, httpError } from '../errors.js';
import { ingestEvent, parseRecord } from '../ingest.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './export.js';

/** What an import did. */
export interface ImportReport {
  added: { events: number; records: number };
  /** Already there (same id): importing twice adds nothing. */
  skipped: { events: number; records: number };
  /** Lines refused, with why (the first 100; `rejected_total` counts all). */
  rejected: Array<{ line: number; reason: string }>;
  rejected_total: number;
  /** False when the file ended before its end line (cut off). */
  complete: boolean;
}

/** Lines handled at once: their writes share transactions. */
const CHUNK = 256;
const MAX_REPORTED = 100;

/**
 * Imports an export's lines through the same path as POST /v1/events and /v1/memories
 * (validated, scrubbed; duplicates by id are skipped), keeping each event's arrival time
 * and leaving it out of the pending buffer (its records come with it). Each line stands
 * alone: a corrupt or cut-off line is reported and skipped, never half-stored. Imported
 * records are embedded for the current model when the collector has an embedder.
 */
export async function importLines(
  ctx: AppContext,
  lines: AsyncIterable<string>,
): Promise<ImportReport> {
  const report: ImportReport = {
    added: { events: 0, records: 0 },
    skipped: { events: 0, records: 0 },
    rejected: [],
    rejected_total: 0,
    complete: false,
  };
  const reject = (line: number, reason: string) => {
    report.rejected_total++;
    if (report.rejected.length < MAX_REPORTED) report.rejected.push({ line, reason });
  };
  let number = 0;
  let header = false;
  let chunk: Array<Promise<void>> = [];
  let added: MemoryRecord[] = [];
  const flush = async () => {
    await Promise.all(chunk);
    chunk = [];
    if (added.length > 0 && ctx.embedRecords) await ctx.embedRecords(added);
    added = [];
  };

  for await (const text of lines) {
    number++;
    if (text === TOO_LONG) {
      reject(number, `longer than ${MAX_LINE_CHARS} characters`);
      continue;
    }
    if (text.trim() === '') continue;
    let line: { type?: unknown; [key: string]: unknown };
    try {
      line = JSON.parse(text) as typeof line;
      if (!line || typeof line !== 'object' || Array.isArray(line))
        throw new Error('not an object');
    } catch {
      if (!header) throw notAnExport();
      reject(number, 'not a JSON object (the line is corrupt or cut off)');
      continue;
    }
    if (!header) {
      if (line.type !== 'header' || line['format'] !== EXPORT_FORMAT) throw notAnExport();
      const version = Number(line['version']);
      if (!(version >= 1 && version <= EXPORT_VERSION)) {
        throw httpError(
          400,
          `this export has format version ${String(line['version'])}; this kiro-learn reads up to ${EXPORT_VERSION}: upgrade kiro-learn`,
        );
      }
      header = true;
      continue;
    }
    const at = number;
    if (line.type === 'event') {
      const times = eventTimes(line, ctx.now());
      if (typeof times === 'string') {
        reject(at, times);
        continue;
      }
      const { receivedAt } = times;
      chunk.push(
        ingestEvent(ctx, line['event'], undefined, {
          imported: true,
          ...(receivedAt ? { receivedAt } : {}),
        }).then(
          (result) => {
            if (result.stored) report.added.events++;
            else report.skipped.events++;
          },
          (error: unknown) => reject(at, reason(error)),
        ),
      );
    } else if (line.type === 'record') {
      chunk.push(
        (async () => {
          const record = parseRecord(ctx, line['record']);
          const wrong = outOfRange('created_at', record.created_at, ctx.now());
          if (wrong) throw new Error(wrong);
          if (record.updated_at !== undefined) {
            const edited = outOfRange('updated_at', record.updated_at, ctx.now());
            if (edited) throw new Error(edited);
          }
          const team = sharedBy(line['team'], record);
          if (await ctx.storage.getRecord(record.record_id)) {
            report.skipped.records++;
            return;
          }
          if (team) {
            // A team server's shared record: stored as a push by its author would be, so
            // it keeps its author and revision (and a tombstoned id stays deleted).
            const outcome = await ctx.storage.putTeamRecord({
              record,
              team: team.team,
              member: team.author,
              admin: true,
              revision: team.revision,
            });
            if (outcome.status !== 'stored') {
              report.skipped.records++;
              return;
            }
          } else {
            await ctx.storage.putRecord(record);
          }
          report.added.records++;
          added.push(record);
        })().catch((error: unknown) => reject(at, reason(error))),
      );
    } else if (line.type === 'end') {
      report.complete = true;
    } else {
      reject(number, `unknown line type ${JSON.stringify(line.type)}`);
    }
    if (chunk.length >= CHUNK) await flush();
  }
  await flush();
  if (!header) throw notAnExport();
  return report;
}

/**
 * The earliest time an import takes: nothing kiro-learn captured can be older, so an
 * earlier time is a broken clock or a hand-made line, and would sort before everything.
 */
export const EARLIEST_IMPORTED_TIME = '2000-01-01T00:00:00.000Z';
/** How far past the collector's clock an imported time may lie (clocks disagree a little). */
export const FUTURE_SKEW_MS = 24 * 60 * 60 * 1000;

/** Why `value` (the `field` of a line) is not a time an import takes, if it is not. */
function outOfRange(field: string, value: string, now: number): string | undefined {
  const at = Date.parse(value);
  if (Number.isNaN(at)) return `${field} "${value}" is not a date and time`;
  if (at < Date.parse(EARLIEST_IMPORTED_TIME)) {
    return `${field} ${value} is before ${EARLIEST_IMPORTED_TIME.slice(0, 10)}: the clock that wrote it was wrong`;
  }
  if (at > now + FUTURE_SKEW_MS) {
    return `${field} ${value} is in the future (more than a day past this machine's clock)`;
  }
  return undefined;
}

/** An event line's arrival time (absent: now), or why the line's times are refused. */
function eventTimes(
  line: Record<string, unknown>,
  now: number,
): { receivedAt: string | undefined } | string {
  const raw = line['received_at'];
  let receivedAt: string | undefined;
  if (raw !== undefined) {
    if (typeof raw !== 'string') return 'received_at is not a date and time';
    const wrong = outOfRange('received_at', raw, now);
    if (wrong) return wrong;
    receivedAt = new Date(raw).toISOString();
  }
  const event = line['event'] as { valid_time?: unknown } | undefined;
  if (event && typeof event === 'object' && typeof event.valid_time === 'string') {
    const wrong = outOfRange('valid_time', event.valid_time, now);
    if (wrong) return wrong;
  }
  return { receivedAt };
}

const TeamInfoSchema = z.object({
  team: z.string().min(1).max(128),
  author: z.string().min(1).max(128),
  revision: z.number().int().positive().max(LIMITS.teamRevision),
});

/**
 * The `team` part of a record line (a team server's export): who shared the record, in
 * which team, at which revision. Refused unless the record lives in that team's namespace.
 */
function sharedBy(raw: unknown, record: MemoryRecord): z.infer<typeof TeamInfoSchema> | undefined {
  if (raw === undefined) return undefined;
  const parsed = TeamInfoSchema.safeParse(raw);
  if (!parsed.success)
    throw httpError(400, 'invalid team part of a record line', formatIssues(parsed.error));
  const parts = parseNamespace(record.namespace);
  if (!parts || record.namespace !== teamNamespace(parsed.data.team, parts.projectId)) {
    throw httpError(
      400,
      `record ${record.record_id} is marked as team ${parsed.data.team}'s but lives in ${record.namespace}`,
    );
  }
  return parsed.data;
}

function notAnExport(): CollectorError {
  return httpError(
    400,
    'not a kiro-learn export: its first line must be the export header (made by kiro-learn export)',
  );
}

function reason(error: unknown): string {
  if (error instanceof CollectorError) {
    const details = Array.isArray(error.details) ? `: ${error.details.join('; ')}` : '';
    return `${error.message}${details}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Longest line read (an event's body is at most 1 MiB; escaping can double it). */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;
/** What splitLines yields in place of a line over MAX_LINE_CHARS (which is not kept). */
export const TOO_LONG = '\u0000line too long';

/**
 * Splits a byte stream into lines (UTF-8, `\n` or `\r\n`), however the chunks fall. A line
 * over MAX_LINE_CHARS is dropped as it streams by (memory stays bounded) and TOO_LONG
 * stands in for it.
 */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  let skipping = false;
  for await (const chunk of chunks) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = rest.indexOf('\n'); newline >= 0; newline = rest.indexOf('\n', start)) {
      yield skipping ? TOO_LONG : rest.slice(start, newline).replace(/\r$/, '');
      skipping = false;
      start = newline + 1;
    }
    rest = rest.slice(start);
    if (rest.length > MAX_LINE_CHARS) [rest, skipping] = ['', true];
  }
  rest += decoder.decode();
  if (skipping) yield TOO_LONG;
  else if (rest !== '') yield rest;
}
