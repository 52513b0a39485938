import { bodyText, type Event, inertLine, type MemoryRecord } from '@kiro-learn/schema';
import type { CollectorClient } from './collector.js';
import { gist } from './format.js';

/** One line of a timeline. */
export interface TimelineEntry {
  /** Milliseconds since the epoch, for ordering. */
  at: number;
  /** The record id (`mr_…`) or the turn summary's event id. */
  id: string;
  /** A memory record, or a turn summary (a `session_summary` event). */
  kind: 'record' | 'turn';
  /** The rendered line. */
  line: string;
}

/** Page size and page cap when walking back through a project's history. */
const PAGE = 200;
const MAX_PAGES = 25;

/**
 * The `before` entries at or before `anchor` and the `after` entries after it, those nearest
 * the anchor, oldest first. Pages come newest first, so the walk stops as soon as it has seen
 * enough older entries.
 */
export async function around(
  newestFirst: AsyncIterable<TimelineEntry[]> | Iterable<TimelineEntry[]>,
  anchor: number,
  before: number,
  after: number,
): Promise<TimelineEntry[]> {
  const older: TimelineEntry[] = [];
  const newer: TimelineEntry[] = [];
  for await (const page of newestFirst) {
    for (const entry of page) {
      if (entry.at > anchor) {
        newer.push(entry);
        if (newer.length > after) newer.shift();
      } else if (older.length < before) {
        older.push(entry);
      }
    }
    if (older.length >= before) break;
  }
  return [...older, ...newer].sort((a, b) => a.at - b.at);
}

/** A project's records, newest first, as timeline entries. */
export async function* recordPages(
  client: CollectorClient,
  namespace: string,
): AsyncGenerator<TimelineEntry[]> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const offset = page * PAGE;
    const { items, total } = await client.listMemories({ namespace, limit: PAGE, offset });
    yield items.map(recordEntry);
    if (items.length < PAGE || offset + PAGE >= total) return;
  }
}

/** A project's turn summaries (`session_summary` events), newest first, as timeline entries. */
export async function* turnPages(
  client: CollectorClient,
  namespace: string,
): AsyncGenerator<TimelineEntry[]> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listEvents({
      namespace,
      limit: PAGE,
      cursor,
      kind: 'session_summary',
    });
    yield result.items.filter((event) => event.kind === 'session_summary').map(turnEntry);
    cursor = result.next_cursor;
    if (!cursor) return;
  }
}

export function recordEntry(record: MemoryRecord): TimelineEntry {
  return {
    at: Date.parse(record.created_at),
    id: record.record_id,
    kind: 'record',
    line: `${record.created_at} · ${record.record_id} · ${record.observation_type} · ${inertLine(record.title)}: ${gist(record.summary)}`,
  };
}

export function turnEntry(event: Event): TimelineEntry {
  return {
    at: Date.parse(event.valid_time),
    id: event.event_id,
    kind: 'turn',
    line: `${event.valid_time} · ${event.event_id} · turn summary: ${gist(bodyText(event.body)) || '(no text)'}`,
  };
}
