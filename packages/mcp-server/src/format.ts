import { inertLine, type MemoryRecord, type SearchHit } from '@kiro-learn/schema';
import { cut } from './text.js';

// Memory text is data, never structure: every field placed in a listing goes through
// inertLine (one line, no tag or block of its own), as in the retrieval context.

/** Length of the one-line summary in listings: enough to judge relevance, cheap in tokens. */
export const GIST_LENGTH = 160;

/** A summary as one short line, markdown headings left out (session summaries start with one). */
export function gist(summary: string, max = GIST_LENGTH): string {
  return cut(inertLine(summary.replace(/^#{1,6} .*$/gm, '')), max);
}

/** One listing line: id, type, date, title and gist; the model asks for the rest by id. */
export function recordLine(record: MemoryRecord): string {
  const date = record.created_at.slice(0, 10);
  const line = `- ${record.record_id} · ${record.observation_type} · ${date} · ${inertLine(record.title)}: ${gist(record.summary)}`;
  // A record a newer one replaced says so: it may be out of date.
  return record.superseded_by
    ? `${line} (superseded${record.superseded_at ? ` on ${record.superseded_at.slice(0, 10)}` : ''} by ${record.superseded_by})`
    : line;
}

/** The search_memory result text. */
export function formatSearch(query: string, records: SearchHit[]): string {
  if (records.length === 0) return `No memories in this project match "${inertLine(query)}".`;
  const noun = records.length === 1 ? 'memory' : 'memories';
  return [
    `${records.length} ${noun} in this project for "${inertLine(query)}", best first. Call get_memories with the ids you need for details.`,
    '',
    // A teammate's record (team memory) says whose it is; its gist is most of what it says.
    ...records.map((record) =>
      record.author
        ? `${recordLine(record)} (from teammate ${inertLine(record.author)})`
        : recordLine(record),
    ),
  ].join('\n');
}
