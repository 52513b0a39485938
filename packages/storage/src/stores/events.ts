import type { Event, EventKind } from '@kiro-learn/schema';

/**
 * Events: every hook's payload, stored forever (until the user deletes it) byte for byte.
 * Namespaces compare by exact string equality, never as a pattern.
 */
export interface EventStore {
  /**
   * Stores an event once. A duplicate `event_id` is not an error: it reports
   * `stored: false` and changes nothing. With `pending: true`, a newly stored event is
   * also appended to its namespace's pending buffer in the same transaction.
   */
  putEvent(event: Event, options?: PutEventOptions): Promise<PutEventResult>;
  /** The event, or undefined. */
  getEvent(eventId: string): Promise<Event | undefined>;
  /** The event's JSON text exactly as stored, or undefined. */
  getEventJson(eventId: string): Promise<string | undefined>;
  /** Several events by id, in the order asked (missing ids are left out). */
  getEvents(eventIds: readonly string[]): Promise<Event[]>;
  /**
   * Session, kind and time of several events, without their bodies (cheap enough for every
   * prompt: retrieval asks which session a record's events came from). In the order asked;
   * missing ids are left out.
   */
  getEventHeads(eventIds: readonly string[]): Promise<EventHead[]>;
  /** Newest first (by arrival), paged with an opaque cursor. */
  listEvents(query: ListEventsOptions): Promise<EventPage>;
  /**
   * Follows events stored by the other processes sharing this database (PostgreSQL:
   * LISTEN), for live feeds; the backend's own writes are left out. Absent where one
   * process owns the database (SQLite). Resolves once listening; the result stops it.
   * Writers announce their events only while some other process watches, so watch only
   * while someone reads the feed: an idle watch costs every writer a NOTIFY per batch.
   */
  watchEvents?(listener: (stored: StoredEventNotice) => void): Promise<() => Promise<void>>;
}

export interface PutEventOptions {
  /** Also append the event to its namespace's pending buffer (only when newly stored). */
  pending?: boolean;
  /** When the event first arrived (an import keeps the exported time); default now. */
  receivedAt?: string;
}

export interface PutEventResult {
  /** False when an event with this `event_id` was stored already (nothing changed). */
  stored: boolean;
}

export interface ListEventsOptions {
  /** Exact namespace; omitted lists every namespace. */
  namespace?: string;
  /** Only this session's events. */
  sessionId?: string;
  /** Only events of this kind. */
  kind?: EventKind;
  /** Most events on the page. */
  limit: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** Where and when an event happened, without its body (getEventHeads). */
export interface EventHead {
  /** The event. */
  eventId: string;
  /** Its project (exact namespace). */
  namespace: string;
  /** The agent session it came from. */
  sessionId: string;
  /** prompt, tool_use, session_summary or note. */
  kind: EventKind;
  /** The event's `valid_time`. */
  validTime: string;
}

export interface EventPage {
  /** Newest first. */
  items: Event[];
  /** Present while older events follow. */
  nextCursor?: string;
}

/** An event some process stored (watchEvents). */
export interface StoredEventNotice {
  /** The event stored. */
  eventId: string;
  /** Its project (exact namespace). */
  namespace: string;
  /**
   * The event itself, when it fitted in the notice (PostgreSQL's NOTIFY payload holds at
   * most 8000 bytes); otherwise read it with getEvent.
   */
  event?: Event;
}
