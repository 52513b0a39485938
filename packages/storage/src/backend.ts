import type { BufferStore } from './stores/buffer.js';
import type { ClaimStore } from './stores/claims.js';
import type { DataStore } from './stores/data.js';
import type { EventStore } from './stores/events.js';
import type { LogStore } from './stores/logs.js';
import type { MemberStore } from './stores/members.js';
import type { RecordStore } from './stores/records.js';
import type { SearchStore } from './stores/search.js';
import type { SessionReadStore } from './stores/session-reads.js';
import type { SharingStore } from './stores/sharing.js';
import type { StatsStore } from './stores/stats.js';
import type { TeamStore } from './stores/team.js';
import type { VectorStore } from './stores/vectors.js';

/**
 * What kiro-learn needs from a database: one narrow interface per aggregate (each in
 * `stores/`, documented there), composed. The SQLite and the PostgreSQL backends implement
 * each aggregate in a module of the same name (`sqlite/events.ts`, `postgres/events.ts`,
 * …); code that needs one aggregate asks for that interface only. Every method is async
 * so a networked backend fits, and every namespace comparison is exact string equality
 * (never LIKE). The conformance suite (test/conformance/) runs every aggregate's rules on
 * both backends.
 */
export interface StorageBackend
  extends EventStore,
    RecordStore,
    SearchStore,
    SessionReadStore,
    VectorStore,
    BufferStore,
    ClaimStore,
    MemberStore,
    TeamStore,
    LogStore,
    DataStore,
    StatsStore {
  /** Team memory on a developer's machine: shared projects and the outbox (SharingStore). */
  readonly sharing: SharingStore;
  /** Finishes writes handed in, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

export type {
  BufferStore,
  ExtractionCommit,
  PendingEntry,
  PendingSummary,
} from './stores/buffer.js';
export type { ClaimStore } from './stores/claims.js';
export type {
  BackupOptions,
  DataStore,
  ForgetCounts,
  ForgetOptions,
  ForgetResult,
  ForgetScope,
  PrunePolicy,
  ScanPage,
  ScanQuery,
  StoredEvent,
} from './stores/data.js';
export type {
  EventHead,
  EventPage,
  EventStore,
  ListEventsOptions,
  PutEventOptions,
  PutEventResult,
  StoredEventNotice,
} from './stores/events.js';
export type {
  ExtractionLogEntry,
  ExtractionLogInput,
  LogQuery,
  LogStore,
  RetrievalLogEntry,
  RetrievalLogInput,
} from './stores/logs.js';
export type { Member, MemberStore, NewMember } from './stores/members.js';
export type {
  ListRecordsOptions,
  RecordPage,
  RecordStore,
  SupersessionLink,
} from './stores/records.js';
export type { ColumnWeights, SearchHit, SearchOptions, SearchStore } from './stores/search.js';
export type {
  SessionReadStore,
  SessionReads,
  SessionReadsQuery,
} from './stores/session-reads.js';
export {
  type NewTeamRecordCopy,
  type OutboxEntry,
  type OutboxSummary,
  type SharingStore,
  TEAM_RECORD_COPIES,
  type TeamRecordCopy,
  type TeamShare,
} from './stores/sharing.js';
export type { StatsStore, StorageStats } from './stores/stats.js';
export type {
  TeamRecordDelete,
  TeamRecordInfo,
  TeamRecordWrite,
  TeamStore,
  TeamWriteOutcome,
} from './stores/team.js';
export type {
  MissingVectorsOptions,
  MissingVectorsPage,
  RecordVector,
  VectorCoverage,
  VectorHit,
  VectorSearchOptions,
  VectorStore,
} from './stores/vectors.js';
