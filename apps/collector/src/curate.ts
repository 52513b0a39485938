/**
 * The extraction pipeline's reads around an extractor run: the events just before a batch
 * (a turn the batch continues, questions asked before it), and the project's current records
 * that new ones may duplicate or supersede (curateRecords decides; nothing here is a rule).
 */
import { type Curation, curateRecords } from '@kiro-learn/extractor';
import { SESSION_START_QUERY } from '@kiro-learn/retrieval';
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

/** Retrieval log entries read per session of a batch, newest first. */
const LOGGED_PER_SESSION = 200;

/**
 * What retrieval put into the agent's context for each turn of the batch (and the turns
 * just before it, which a batch may continue), by the turn's prompt event id: the prompt's
 * own context plus what the session start showed. Empty when nothing was logged.
 */
export async function injectedFor(
  storage: Pick<StorageBackend, 'listRetrievals'>,
  namespace: string,
  events: readonly Event[],
): Promise<Map<string, Set<string>>> {
  const prompts = new Map<string, string[]>();
  for (const event of events) {
    if (event.kind !== 'prompt') continue;
    prompts.set(event.session_id, [...(prompts.get(event.session_id) ?? []), event.event_id]);
  }
  const injected = new Map<string, Set<string>>();
  for (const [sessionId, ids] of prompts) {
    const entries = await storage.listRetrievals({
      namespace,
      sessionId,
      limit: LOGGED_PER_SESSION,
    });
    const atStart = entries
      .filter((entry) => entry.query === SESSION_START_QUERY)
      .flatMap((entry) => entry.recordIds);
    const byPrompt = new Map(entries.map((entry) => [entry.eventId, entry.recordIds]));
    for (const id of ids) {
      const given = new Set([...(byPrompt.get(id) ?? []), ...atStart]);
      if (given.size > 0) injected.set(id, given);
    }
  }
  return injected;
}

/** New records curated against the project's current ones (merged, superseded). */
export async function curate(
  storage: Pick<StorageBackend, 'searchRecords' | 'listRecords' | 'getRecords'>,
  namespace: string,
  fresh: readonly MemoryRecord[],
  options: {
    named?: ReadonlyMap<string, readonly string[]>;
    merge?: boolean;
    injected?: ReadonlyMap<string, ReadonlySet<string>>;
  } = {},
): Promise<Curation> {
  if (fresh.length === 0) return { records: [], merged: [], superseded: [] };
  const existing = await relatedRecords(storage, namespace, fresh);
  // What the agent was given is looked at too, found by the search or not.
  const have = new Set(existing.map((record) => record.record_id));
  const given = [...new Set([...(options.injected?.values() ?? [])].flatMap((ids) => [...ids]))];
  const missing = given.filter((id) => !have.has(id));
  if (missing.length > 0) {
    for (const record of await storage.getRecords(missing)) {
      if (record.namespace === namespace && record.superseded_by === undefined) {
        existing.push(record);
      }
    }
    existing.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }
  return curateRecords({ fresh, existing, ...options });
}
