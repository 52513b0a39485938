import type {
  Event,
  EventKind,
  MemoryRecord,
  MemoryRecordPatch,
  ObservationType,
} from '@kiro-learn/schema';
import type { VectorHit } from './vectors/vector-index.js';

/**
 * What kiro-learn needs from a database. The SQLite backend implements it; a server
 * database can implement it later. Every method is async so a networked backend fits,
 * and every namespace comparison is exact string equality (never LIKE).
 */
export interface StorageBackend {
  // ---- events (stored forever, byte-identical) ----
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

  // ---- memory records ----
  /** Inserts a record (and its search row, in one transaction). Replaces one with the same id. */
  putRecord(record: MemoryRecord): Promise<void>;
  /**
   * Inserts a record unless one with its id exists, in any namespace: then it returns
   * false and changes nothing (`POST /v1/memories` answers 409). Atomic, so two writers
   * of one id cannot both succeed.
   */
  insertRecord(record: MemoryRecord): Promise<boolean>;
  getRecord(recordId: string): Promise<MemoryRecord | undefined>;
  /** Several records by id, in the order asked (missing ids are left out). */
  getRecords(recordIds: readonly string[]): Promise<MemoryRecord[]>;
  /** Applies an edit; sets `updated_at`. Returns the new record, or undefined when missing. */
  updateRecord(recordId: string, patch: MemoryRecordPatch): Promise<MemoryRecord | undefined>;
  /** Deletes a record and its search row. False when there was none. */
  deleteRecord(recordId: string): Promise<boolean>;
  /** Newest first (by `created_at`, then id). */
  listRecords(query: ListRecordsOptions): Promise<RecordPage>;
  /** Full-text search, best first. Never throws on any query text. */
  searchRecords(query: SearchOptions): Promise<SearchHit[]>;

  // ---- record vectors (semantic search; one vector per record and embedding model) ----
  /**
   * Stores vectors of records for one model. A vector whose record does not exist (any
   * more) is skipped; one the record already has for this model is kept (a change to the
   * record's text deletes its vectors, so an existing one is current). Deleting a record
   * deletes its vectors. Returns how many were stored.
   */
  putVectors(modelId: string, vectors: readonly RecordVector[]): Promise<number>;
  /**
   * Exact nearest-neighbour search (cosine) over the vectors of one namespace (exact
   * string equality) and one model, best first. Kept in step with every write and delete,
   * including other processes'. Never throws on a query of the wrong dimension: no hits.
   */
  searchVectors(query: VectorSearchOptions): Promise<VectorHit[]>;
  /**
   * Records with no vector for this model, newest first, a page at a time: what
   * `kiro-learn reindex` embeds. Pass `nextCursor` back to continue; a page may be short.
   */
  recordsWithoutVector(query: MissingVectorsOptions): Promise<MissingVectorsPage>;
  /** How many records there are, and how many of them have a vector for this model. */
  vectorCoverage(modelId: string, namespace?: string): Promise<VectorCoverage>;
  /** Deletes the vectors of every model but this one (after a model change). Returns how many. */
  deleteVectorsExcept(modelId: string): Promise<number>;

  // ---- pending buffer (events waiting for extraction) ----
  /** Pending entries of one namespace, oldest first. */
  listPending(namespace: string, options?: { limit?: number }): Promise<PendingEntry[]>;
  /** Count and bytes pending per namespace (for re-arming watchers at start-up). */
  pendingSummary(): Promise<PendingSummary[]>;
  /** Removes exactly these entries (events appended meanwhile stay). Returns how many. */
  removePending(namespace: string, eventIds: readonly string[]): Promise<number>;
  /**
   * Stores records and removes the pending entries they came from in one transaction, so
   * a crash can neither lose the events nor store the records twice. Conditional: when any
   * of `eventIds` is no longer pending (another run or process committed it), nothing is
   * stored and it rejects with StorageError `stale_batch`.
   */
  commitExtraction(commit: ExtractionCommit): Promise<void>;
  /**
   * Sets pending entries aside (a project past its pending ceiling): they leave the
   * buffer but keep their order, until requeueParked puts them back. Returns how many.
   * Optional (with requeueParked and parkedSummary): a backend without them has the
   * buffer drop such entries from the buffer instead (the events stay stored).
   */
  parkPending?(namespace: string, eventIds: readonly string[]): Promise<number>;
  /**
   * Moves a namespace's oldest parked entries back into its pending buffer while its
   * pending bytes stay within `maxPendingBytes` (at least one entry into an empty buffer).
   * Returns how many moved.
   */
  requeueParked?(namespace: string, maxPendingBytes: number): Promise<number>;
  /** Count and bytes parked per namespace (for re-queueing at start-up). */
  parkedSummary?(): Promise<Array<{ namespace: string; count: number; bytes: number }>>;

  // ---- several collectors on one database ----
  /**
   * Claims the extraction of a namespace's pending events for `owner` until `ttlMs` from
   * now, or extends the owner's own claim. False while another owner's claim runs: only
   * the holder extracts, so a batch is never extracted by two collectors at once, and the
   * claim of a collector that died mid-extraction runs out by itself.
   */
  claimExtraction(namespace: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends the owner's claim on a namespace (nothing when it holds none). */
  releaseExtraction(namespace: string, owner: string): Promise<void>;
  /**
   * Follows events stored by the other processes sharing this database (PostgreSQL:
   * LISTEN), for live feeds; the backend's own writes are left out. Absent where one
   * process owns the database (SQLite). Resolves once listening; the result stops it.
   */
  watchEvents?(listener: (stored: StoredEventNotice) => void): Promise<() => Promise<void>>;

  // ---- members of a team memory server (named bearer tokens) ----
  /**
   * Adds a member holding the token whose SHA-256 (hex) is `tokenHash`; the token itself
   * is never stored. StorageError `conflict` when the name or the token is taken.
   */
  addMember(member: NewMember): Promise<Member>;
  /** Every member, by team, then name. */
  listMembers(): Promise<Member[]>;
  /** Removes a member (their token stops working at once). False when there was none. */
  removeMember(name: string): Promise<boolean>;
  /** The member whose token hashes to `tokenHash`, or undefined. */
  findMember(tokenHash: string): Promise<Member | undefined>;

  // ---- team records (what members share through a team server) ----
  /**
   * Stores a record a member pushed, in its team, as the next revision: atomic, so the
   * author and revision rules hold under concurrent pushes. The record itself is an
   * ordinary memory record (search, vectors, forget and export see it); this adds its team,
   * author and revision. Decided in this order: `conflict` when the id is a record outside
   * the team (another team's, or not shared at all); `forbidden` when another member
   * authored it and the pusher is no admin; `stale` when the stored revision is at least
   * this one (nothing changes); else `stored`. The author stays the first pusher.
   */
  putTeamRecord(write: TeamRecordWrite): Promise<TeamWriteOutcome>;
  /**
   * Deletes a team's record: `missing` when it is not one of the team's records. A deleted
   * record leaves a tombstone: a later push of its id answers `gone`, whatever its revision.
   */
  deleteTeamRecord(request: TeamRecordDelete): Promise<'deleted' | 'missing' | 'forbidden'>;
  /** Team, author and revision of these records (ids that are no team record are left out). */
  teamRecordInfo(recordIds: readonly string[]): Promise<TeamRecordInfo[]>;

  // ---- team memory, on a developer's machine (see SharingStore) ----
  /** Shared projects, the outbox of their records to push, and copies of team records. */
  readonly sharing: SharingStore;

  // ---- logs (for the viewer and /metrics) ----
  logRetrieval(entry: RetrievalLogInput): Promise<void>;
  /** Newest first; `since` (an ISO time) keeps those logged at or after it. */
  listRetrievals(
    query: LogQuery & { sessionId?: string; since?: string },
  ): Promise<RetrievalLogEntry[]>;
  logExtraction(entry: ExtractionLogInput): Promise<void>;
  listExtractions(query: LogQuery): Promise<ExtractionLogEntry[]>;

  // ---- your data: forget, export, retention, backup ----
  /** What `forget(scope)` would delete, counted; nothing changes. */
  countForget(scope: ForgetScope): Promise<ForgetCounts>;
  /**
   * Deletes everything in `scope`: events, the records derived from them (with their
   * search rows and vectors), pending entries and log lines. Leaves no trace of the
   * deleted text in the database's files (on SQLite: zeroed pages, FTS entries removed,
   * the WAL truncated). Returns what went.
   */
  forget(scope: ForgetScope): Promise<ForgetCounts>;
  /** Stored events in arrival order, as their exact JSON text, paged (export). */
  scanEvents(query: ScanQuery): Promise<ScanPage<StoredEvent>>;
  /** Records in a stable order, paged (export). */
  scanRecords(query: ScanQuery): Promise<ScanPage<MemoryRecord>>;
  /**
   * Retention: deletes (or with `dryRun` only counts) the events of `policy`, oldest
   * first, like `forget` (no trace). Memory records are kept.
   */
  pruneEvents(policy: PrunePolicy): Promise<ForgetCounts>;
  /**
   * A consistent copy of the whole database at `path` (a file that opens as a database
   * on its own), taken while reads and writes go on. Throws StorageError `unsupported`
   * where the backend has no file to copy (a server database: use its own tools).
   * `signal` abandons a copy under way (a shutdown): it rejects at the next step, with no
   * file left at `path`.
   */
  backup(path: string, options?: { signal?: AbortSignal }): Promise<{ bytes: number }>;

  // ---- totals ----
  stats(namespace?: string): Promise<StorageStats>;
  /** Database size on disk in bytes (0 where not applicable). */
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Team memory on a developer's machine: which namespaces are shared with the team, and the
 * durable outbox of their records waiting to be pushed. Every write of a record in a
 * shared namespace (insert, edit, delete, forget, import) queues an outbox entry in the
 * same transaction as the write itself (database triggers), so nothing written can miss
 * the outbox and nothing queued can outlive a rolled-back write.
 */
export interface SharingStore {
  /**
   * Shares a namespace under the team's `projectId`. The first time, every record it
   * already holds is queued too (oldest first). Idempotent: `added` false and nothing
   * queued when it was shared already.
   */
  share(namespace: string, projectId: string): Promise<{ added: boolean; queued: number }>;
  /** Stops sharing a namespace and drops its entries not yet pushed. */
  unshare(namespace: string): Promise<{ removed: boolean; dropped: number }>;
  /** Shared namespaces, by namespace. */
  listShares(): Promise<TeamShare[]>;
  /** The oldest outbox entries (ascending `seq`), at most `limit`. */
  nextOutbox(limit: number): Promise<OutboxEntry[]>;
  /** Removes pushed entries. Returns how many went. */
  completeOutbox(seqs: readonly number[]): Promise<number>;
  /** Counts a failed push of an entry (it stays, in place) and keeps why. */
  failOutbox(seq: number, error: string): Promise<void>;
  /** How many entries wait, since when, and the last failure among them. */
  outboxSummary(): Promise<OutboxSummary>;
  /**
   * Keeps copies of team records that went into a context (the viewer shows them with
   * their author); the newest `TEAM_RECORD_COPIES` are kept. Replaces by record_id.
   */
  rememberTeamRecords(copies: readonly NewTeamRecordCopy[]): Promise<void>;
  /** Kept copies by record_id, in the order asked (missing ids are left out). */
  teamRecords(recordIds: readonly string[]): Promise<TeamRecordCopy[]>;
}

/** How many copies of team records `rememberTeamRecords` keeps. */
export const TEAM_RECORD_COPIES = 2000;

/** A namespace whose records go to the team server. */
export interface TeamShare {
  namespace: string;
  /** The project id the team server files them under (the namespace's project part). */
  projectId: string;
  /** ISO time it was shared. */
  sharedAt: string;
}

/** One record write waiting to be pushed to the team server. */
export interface OutboxEntry {
  /** Position in the outbox; grows with every write, so it is the record's revision too. */
  seq: number;
  recordId: string;
  namespace: string;
  projectId: string;
  /** `put`: send the record as it is now (when it still exists); `delete`: delete it there. */
  op: 'put' | 'delete';
  /** ISO time it was queued. */
  queuedAt: string;
  /** Failed pushes so far. */
  attempts: number;
  lastError?: string;
}

export interface OutboxSummary {
  count: number;
  /** ISO time the oldest entry was queued. */
  oldestAt?: string;
  /** Why the oldest failing entry failed last. */
  lastError?: string;
}

export interface NewTeamRecordCopy {
  record: MemoryRecord;
  /** The member who shared it. */
  author: string;
  projectId: string;
}

export interface TeamRecordCopy extends NewTeamRecordCopy {
  /** ISO time it was last seen in a context. */
  seenAt: string;
}

/** A member of a team memory server. */
export interface Member {
  /** Unique on the server; becomes the actor of everything the member writes. */
  name: string;
  /** The one team the member belongs to (`default` unless named). */
  team: string;
  /** `admin` may manage every record of their team, `member` their own. */
  role: 'member' | 'admin';
  /** ISO time the member was added. */
  createdAt: string;
}

export interface NewMember {
  name: string;
  /** Default `default`. */
  team?: string;
  role: Member['role'];
  /** SHA-256 of the member's token, lower-case hex. */
  tokenHash: string;
}

/** A record pushed to a team server (putTeamRecord). */
export interface TeamRecordWrite {
  /** The record, its namespace already the team's (the caller builds it). */
  record: MemoryRecord;
  team: string;
  /** The pushing member. */
  member: string;
  /** May overwrite records other members of the team authored. */
  admin: boolean;
  /** Positive; grows with every edit on the author's machine. */
  revision: number;
}

export type TeamWriteOutcome =
  | { status: 'stored' }
  | { status: 'stale'; revision: number }
  | { status: 'forbidden'; author: string }
  | { status: 'conflict' }
  /** The record was deleted from the team's records (deleteTeamRecord): not taken again. */
  | { status: 'gone'; deletedAt: string };

export interface TeamRecordDelete {
  recordId: string;
  team: string;
  member: string;
  admin: boolean;
}

/** Who shared a record, in which team, at which revision. */
export interface TeamRecordInfo {
  recordId: string;
  team: string;
  author: string;
  revision: number;
  /** ISO time of the last stored push. */
  updatedAt: string;
}

/** An event some process stored (watchEvents). */
export interface StoredEventNotice {
  eventId: string;
  namespace: string;
}

export interface PutEventOptions {
  /** Also append the event to its namespace's pending buffer (only when newly stored). */
  pending?: boolean;
  /** When the event first arrived (an import keeps the exported time); default now. */
  receivedAt?: string;
}

/**
 * What `forget` deletes. `before` is an ISO time compared with when events arrived and
 * records were created; `namespace` narrows `session` and `before` to one project.
 */
export type ForgetScope =
  | { record: string }
  | { event: string }
  | { session: string; namespace?: string }
  | { namespace: string }
  | { before: string; namespace?: string }
  | { all: true };

/** How much a forget or prune deleted (or would delete). */
export interface ForgetCounts {
  events: number;
  records: number;
  pending: number;
  /** Retrieval and extraction log lines. */
  logs: number;
}

export interface ScanQuery {
  /** Exact namespace; omitted scans every namespace. */
  namespace?: string;
  /** Opaque cursor from the previous page. */
  cursor?: string;
  limit: number;
}

export interface ScanPage<T> {
  items: T[];
  /** Present while more items follow. */
  nextCursor?: string;
}

/** An event as stored: its JSON text byte for byte, and when it arrived. */
export interface StoredEvent {
  json: string;
  receivedAt: string;
}

/** Which events retention drops: older than `olderThan`, then the oldest beyond `maxBytes`. */
export interface PrunePolicy {
  /** One project's events; omitted: every project's. */
  namespace?: string;
  /** Events that arrived before this ISO time go. */
  olderThan?: string;
  /**
   * Size cap in bytes: with `namespace`, the project's stored event text; without, the
   * database's used size. The oldest events go until it fits.
   */
  maxBytes?: number;
  /** Count only; delete nothing. */
  dryRun?: boolean;
}

export interface PutEventResult {
  stored: boolean;
}

export interface ListEventsOptions {
  namespace?: string;
  sessionId?: string;
  kind?: EventKind;
  limit: number;
  cursor?: string;
}

/** Where and when an event happened, without its body (getEventHeads). */
export interface EventHead {
  eventId: string;
  namespace: string;
  sessionId: string;
  kind: EventKind;
  /** The event's `valid_time`. */
  validTime: string;
}

export interface EventPage {
  items: Event[];
  nextCursor?: string;
}

export interface ListRecordsOptions {
  namespace?: string;
  observationType?: ObservationType;
  /** Only records created at or after this ISO time. */
  since?: string;
  /** Only records created before this ISO time. */
  until?: string;
  strategy?: string;
  limit: number;
  offset?: number;
}

export interface RecordPage {
  items: MemoryRecord[];
  total: number;
}

/** BM25 weights per indexed column; larger counts more. */
export interface ColumnWeights {
  title: number;
  summary: number;
  facts: number;
  concepts: number;
  files: number;
}

export interface SearchOptions {
  /** Exact namespace; omitted searches every namespace. */
  namespace?: string;
  /** Raw text: a prompt, a question, anything. */
  query: string;
  limit: number;
  observationType?: ObservationType;
  /** Only records whose files_touched contains this path (exact, or as a suffix after `/`). */
  file?: string;
  weights?: Partial<ColumnWeights>;
}

export interface SearchHit {
  record: MemoryRecord;
  /** Higher is better (negated BM25; LIKE fallback hits score by matched terms). */
  score: number;
  /** The query terms (as typed) that went into the search. */
  terms: string[];
  /** How the hit was found. */
  via: 'fts' | 'like';
}

/** A record's embedding. */
export interface RecordVector {
  recordId: string;
  vector: Float32Array;
}

export interface VectorSearchOptions {
  /** Exact namespace (required: vectors never answer across namespaces). */
  namespace: string;
  modelId: string;
  /** The query's embedding (any length; compared by direction). */
  vector: Float32Array;
  limit: number;
}

export type { VectorHit } from './vectors/vector-index.js';

export interface MissingVectorsOptions {
  modelId: string;
  /** Only this namespace (exact); omitted: every namespace. */
  namespace?: string;
  limit: number;
  /** From the previous page. */
  cursor?: string;
}

export interface MissingVectorsPage {
  records: MemoryRecord[];
  /** Absent on the last page. */
  nextCursor?: string;
}

export interface VectorCoverage {
  records: number;
  withVector: number;
}

export interface PendingEntry {
  namespace: string;
  eventId: string;
  bytes: number;
  /** ISO time the event was appended. */
  appendedAt: string;
}

export interface PendingSummary {
  namespace: string;
  count: number;
  bytes: number;
  oldestAt: string;
  newestAt: string;
}

export interface ExtractionCommit {
  namespace: string;
  records: readonly MemoryRecord[];
  /** Pending entries to remove: exactly the events the extraction saw. */
  eventIds: readonly string[];
}

export interface LogQuery {
  namespace?: string;
  limit: number;
  /** Only entries logged after this id (for incremental polling). */
  afterId?: number;
}

export interface RetrievalLogInput {
  namespace: string;
  sessionId?: string;
  eventId?: string;
  query: string;
  recordIds: string[];
  scores: number[];
  latencyMs: number;
  /** The latency budget expired before the search finished. */
  timedOut: boolean;
  /** The context token budget left records out or trimmed them. */
  budgetCut: boolean;
  error?: string;
}

export interface RetrievalLogEntry extends RetrievalLogInput {
  id: number;
  createdAt: string;
}

export interface ExtractionLogInput {
  namespace: string;
  extractor: string;
  status: 'ok' | 'skipped' | 'failed';
  batchSize: number;
  records: number;
  attempts: number;
  durationMs: number;
  error?: string;
  startedAt: string;
}

export interface ExtractionLogEntry extends ExtractionLogInput {
  id: number;
}

export interface StorageStats {
  events: { total: number; byKind: Record<string, number> };
  memories: { total: number; byType: Record<string, number> };
  projects: Array<{ namespace: string; events: number; memories: number; lastEventAt?: string }>;
}
