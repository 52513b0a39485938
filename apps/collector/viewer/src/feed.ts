import { api } from './api.js';
import { follow, type StreamStatus } from './stream.js';
import type {
  Activity,
  EventSummary,
  ExtractionLogEntry,
  FeedItem,
  RetrievalLogEntry,
} from './types.js';

/** Rows kept in memory: the feed is a window on now, the memory browser is for history. */
const KEEP = 300;

type Listener = (added: FeedItem[]) => void;

const items: FeedItem[] = [];
const keys = new Set<string>();
const listeners = new Set<Listener>();
const statusListeners = new Set<(status: StreamStatus) => void>();
let status: StreamStatus = 'connecting';

export function feedItems(): readonly FeedItem[] {
  return items;
}

export function feedStatus(): StreamStatus {
  return status;
}

/** Calls back with new rows; returns the unsubscribe. */
export function onFeed(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function onStatus(listener: (status: StreamStatus) => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

function add(incoming: FeedItem[]): void {
  const fresh = incoming.filter((item) => !keys.has(item.key));
  if (fresh.length === 0) return;
  for (const item of fresh) keys.add(item.key);
  items.push(...fresh);
  items.sort((a, b) => b.at.localeCompare(a.at) || b.key.localeCompare(a.key));
  for (const dropped of items.splice(KEEP)) keys.delete(dropped.key);
  for (const listener of listeners) listener(fresh);
}

const eventItem = (event: EventSummary): FeedItem => ({
  type: 'event',
  key: `event:${event.event_id}`,
  at: event.valid_time,
  event,
});
// Keys are natural (an extraction's project and start, a retrieval's prompt event), so a row
// that arrived on the stream and the same row read back from the log are one row.
const extractionItem = (extraction: ExtractionLogEntry): FeedItem => ({
  type: 'extraction',
  key: `extraction:${extraction.namespace}@${extraction.startedAt}`,
  at: extraction.startedAt,
  extraction,
});
const retrievalItem = (retrieval: RetrievalLogEntry): FeedItem => ({
  type: 'retrieval',
  key: `retrieval:${retrieval.eventId ?? `${retrieval.namespace}@${retrieval.createdAt}`}`,
  at: retrieval.createdAt,
  retrieval,
});

/**
 * The stream may carry a retrieval in a shorter form than the log (`records` for
 * `recordIds`, no prompt text): fill the gaps, taking the prompt from its event's row.
 */
function completeRetrieval(raw: Record<string, unknown>): RetrievalLogEntry {
  const r = raw as Partial<RetrievalLogEntry> & { records?: string[] };
  const prompt = items.find((item) => item.type === 'event' && item.event.event_id === r.eventId);
  return {
    ...r,
    id: r.id ?? 0,
    namespace: r.namespace ?? '',
    query: r.query ?? (prompt?.type === 'event' ? prompt.event.preview : ''),
    recordIds: r.recordIds ?? r.records ?? [],
    scores: r.scores ?? [],
    latencyMs: r.latencyMs ?? 0,
    timedOut: r.timedOut ?? false,
    budgetCut: r.budgetCut ?? false,
    createdAt: r.createdAt ?? new Date().toISOString(),
  };
}

/** A full wire Event from the stream, cut down to what a row shows. */
function summarize(raw: Record<string, unknown>): EventSummary {
  const event = raw as unknown as {
    event_id: string;
    kind: EventSummary['kind'];
    namespace: string;
    session_id: string;
    valid_time: string;
    source?: { surface?: EventSummary['surface'] };
    body?: { type: string; content?: string; turns?: { content: string }[]; data?: unknown };
  };
  const body = event.body;
  const text =
    body?.type === 'text'
      ? (body.content ?? '')
      : body?.type === 'message'
        ? (body.turns ?? []).map((t) => t.content).join('\n')
        : typeof body?.data === 'string'
          ? body.data
          : (JSON.stringify(body?.data) ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return {
    event_id: event.event_id,
    kind: event.kind,
    surface: event.source?.surface ?? 'api',
    namespace: event.namespace,
    project: /\/project\/([^/]+)\/$/.exec(event.namespace)?.[1] ?? event.namespace,
    session_id: event.session_id,
    valid_time: event.valid_time,
    preview: flat.length > 240 ? `${flat.slice(0, 240)}…` : flat,
  };
}

/** Turns a stream message into a feed row, whatever envelope the collector wraps it in. */
export function toFeedItem(type: string, data: unknown): FeedItem | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const envelope = data as Record<string, unknown>;
  const kind = type !== 'message' ? type : String(envelope['type'] ?? '');
  const inner = envelope[kind] ?? envelope['data'] ?? envelope['payload'] ?? envelope;
  if (!inner || typeof inner !== 'object') return undefined;
  const payload = inner as Record<string, unknown>;
  if (kind === 'event' && typeof payload['event_id'] === 'string') {
    return eventItem(
      'preview' in payload ? (payload as unknown as EventSummary) : summarize(payload),
    );
  }
  if (kind === 'extraction') return extractionItem(payload as unknown as ExtractionLogEntry);
  if (kind === 'retrieval') return retrievalItem(completeRetrieval(payload));
  return undefined;
}

/** Loads recent activity, then follows the stream for the life of the page. */
export async function startFeed(): Promise<void> {
  follow(
    '/v1/stream',
    ({ type, data }) => {
      const item = toFeedItem(type, data);
      if (item) add([item]);
    },
    (next) => {
      status = next;
      for (const listener of statusListeners) listener(next);
    },
  );
  const recent = await api<Activity>('/ui/api/activity?limit=100');
  add([
    ...recent.events.map(eventItem),
    ...recent.extractions.map(extractionItem),
    ...recent.retrievals.map(retrievalItem),
  ]);
}
