/**
 * The extraction pipeline's reads around an extractor run: the events just before a batch
 * (a turn the batch continues, questions asked before it), and the project's current records
 * that new ones may duplicate or supersede (curateRecords decides; nothing here is a rule).
 */
import { type Curation, curateRecords } from '@kiro-learn/extractor';
import type { Event, MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';

/** Events read per page, and pages at most, when looking back for the turns before a batch. */
const PRECEDING_PAGE = 200;
const PRECEDING_PAGES = 10;
/** Prompts of a session kept before a batch (the open turn and the questions before it). */
const PRECEDING_PROMPTS = 4;

/**
 * Per session of the batch, its events that arrived before the batch's first one (oldest
 * first), back to the last few prompts (a long turn's prompt may lie hundreds of tool
 * calls back): context for the extractor, never extracted again.
 */
export async function precedingEvents(
  storage: Pick<StorageBackend, 'listEvents'>,
  namespace: string,
  events: readonly Event[],
): Promise<Event[]> {
  const firstOf = new Map<string, string>();
  for (const event of events) {
    if (!firstOf.has(event.session_id)) firstOf.set(event.session_id, event.event_id);
  }
  const out: Event[] = [];
  for (const [sessionId, firstId] of firstOf) {
    const older: Event[] = [];
    let found = false;
    let prompts = 0;
    let cursor: string | undefined;
    for (let page = 0; page < PRECEDING_PAGES && prompts < PRECEDING_PROMPTS; page++) {
      const listed = await storage.listEvents({
        namespace,
        sessionId,
        limit: PRECEDING_PAGE,
        ...(cursor ? { cursor } : {}),
      });
      for (const event of listed.items) {
        if (!found) {
          found = event.event_id === firstId;
          continue;
        }
        older.push(event);
        if (event.kind === 'prompt' && ++prompts >= PRECEDING_PROMPTS) break;
      }
      if (!listed.nextCursor) break;
      cursor = listed.nextCursor;
    }
    out.push(...older.reverse());
  }
  return out;
}

/** How many current records are looked at per new record. */
const CANDIDATES = 12;

/**
 * The project's current records new records may nearly duplicate or supersede: found by
 * their title, files and facts (and any extra query texts) by lexical search, plus the
 * newest few.
 */
export async function relatedRecords(
  storage: Pick<StorageBackend, 'searchRecords' | 'listRecords'>,
  namespace: string,
  fresh: readonly MemoryRecord[],
  ...queries: string[]
): Promise<MemoryRecord[]> {
  const byId = new Map<string, MemoryRecord>();
  const recent = await storage.listRecords({ namespace, current: true, limit: CANDIDATES });
  for (const record of recent.items) byId.set(record.record_id, record);
  const texts = [
    ...fresh.map((record) =>
      [record.title, ...record.files_touched, ...record.facts.slice(0, 3)].join(' '),
    ),
    ...queries.filter((query) => query.trim() !== ''),
  ];
  for (const query of texts) {
    const hits = await storage.searchRecords({
      namespace,
      query,
      limit: CANDIDATES,
      current: true,
    });
    for (const hit of hits) byId.set(hit.record.record_id, hit.record);
  }
  for (const record of fresh) byId.delete(record.record_id);
  // Oldest first, so the earliest of several twins is the one merged into.
  return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** New records curated against the project's current ones (merged, superseded). */
export async function curate(
  storage: Pick<StorageBackend, 'searchRecords' | 'listRecords'>,
  namespace: string,
  fresh: readonly MemoryRecord[],
  options: { named?: ReadonlyMap<string, readonly string[]>; merge?: boolean } = {},
): Promise<Curation> {
  if (fresh.length === 0) return { records: [], merged: [], superseded: [] };
  const existing = await relatedRecords(storage, namespace, fresh);
  return curateRecords({ fresh, existing, ...options });
}
