import type { StorageReads } from '@kiro-learn/storage';

/** The export format's name and version: the header line carries both. */
export const EXPORT_FORMAT = 'kiro-learn-export';
export const EXPORT_VERSION = 1;

/** The first line of an export. */
export interface ExportHeader {
  type: 'header';
  format: typeof EXPORT_FORMAT;
  version: number;
  tool_version: string;
  exported_at: string;
  /** Only this project's data, when the export was narrowed to one. */
  namespace?: string;
  /** What the export holds (counted when it started). */
  counts: { events: number; records: number };
}

/** Rows read per page: memory stays flat however large the database. */
const PAGE = 1000;

/**
 * A versioned JSON Lines export, streamed page by page: a header line, then every event
 * (`{"type":"event","received_at","event"}`, the event's stored JSON text verbatim),
 * then every record (`{"type":"record","record"}`; a team server's shared record also
 * carries `"team":{"team","author","revision"}`, so an import keeps who shared it and its
 * revision), then an end line with what was written, so a cut-off file is recognised.
 */
export async function* exportLines(
  storage: Pick<StorageReads, 'stats' | 'scanEvents' | 'scanRecords' | 'teamRecordInfo'>,
  options: { namespace?: string; toolVersion: string; now?: () => number },
): AsyncGenerator<string> {
  const { namespace } = options;
  const stats = await storage.stats(namespace);
  const header: ExportHeader = {
    type: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    tool_version: options.toolVersion,
    exported_at: new Date((options.now ?? Date.now)()).toISOString(),
    ...(namespace ? { namespace } : {}),
    counts: { events: stats.events.total, records: stats.memories.total },
  };
  yield `${JSON.stringify(header)}\n`;
  const scope = namespace ? { namespace } : {};
  let events = 0;
  let cursor: string | undefined;
  do {
    const page = await storage.scanEvents({ ...scope, limit: PAGE, ...(cursor ? { cursor } : {}) });
    events += page.items.length;
    if (page.items.length > 0) {
      yield page.items
        .map(
          (e) =>
            `{"type":"event","received_at":${JSON.stringify(e.receivedAt)},"event":${e.json}}\n`,
        )
        .join('');
    }
    cursor = page.nextCursor;
  } while (cursor);
  let records = 0;
  cursor = undefined;
  do {
    const page = await storage.scanRecords({
      ...scope,
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    records += page.items.length;
    if (page.items.length > 0) {
      const shared = new Map(
        (await storage.teamRecordInfo(page.items.map((r) => r.record_id))).map((info) => [
          info.recordId,
          { team: info.team, author: info.author, revision: info.revision },
        ]),
      );
      yield page.items
        .map((r) => {
          const team = shared.get(r.record_id);
          return `${JSON.stringify({ type: 'record', record: r, ...(team ? { team } : {}) })}\n`;
        })
        .join('');
    }
    cursor = page.nextCursor;
  } while (cursor);
  yield `${JSON.stringify({ type: 'end', events, records })}\n`;
}
