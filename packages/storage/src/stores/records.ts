import type { MemoryRecord, MemoryRecordPatch, ObservationType } from '@kiro-learn/schema';

/**
 * Memory records: short, durable knowledge distilled from events. Every write keeps the
 * record's search row in step in the same transaction; deleting a record deletes its
 * search row and vectors.
 */
export interface RecordStore {
  /** Inserts a record (and its search row, in one transaction). Replaces one with the same id. */
  putRecord(record: MemoryRecord): Promise<void>;
  /**
   * Inserts a record unless one with its id exists, in any namespace: then it returns
   * false and changes nothing (`POST /v1/memories` answers 409). Atomic, so two writers
   * of one id cannot both succeed.
   */
  insertRecord(record: MemoryRecord): Promise<boolean>;
  /** The record, or undefined. */
  getRecord(recordId: string): Promise<MemoryRecord | undefined>;
  /** Several records by id, in the order asked (missing ids are left out). */
  getRecords(recordIds: readonly string[]): Promise<MemoryRecord[]>;
  /** Applies an edit; sets `updated_at`. Returns the new record, or undefined when missing. */
  updateRecord(recordId: string, patch: MemoryRecordPatch): Promise<MemoryRecord | undefined>;
  /** Deletes a record and its search row. False when there was none. */
  deleteRecord(recordId: string): Promise<boolean>;
  /** Newest first (by `created_at`, then id). */
  listRecords(query: ListRecordsOptions): Promise<RecordPage>;

  // Supersession: a newer record retires an older one on the same subject.
  /**
   * Marks `link.recordId` superseded by the newer `link.supersededBy` (sets the older
   * record's `superseded_by`, `superseded_at` and `superseded_reason`; replaces an earlier
   * link of it). The record is kept and stays searchable; readers rank and label it.
   * StorageError `invalid_link` when the two are one record, lie in different namespaces,
   * or the link would close a cycle. Undefined when either record is missing. Deleting the
   * newer record (delete, forget) makes the older current again.
   */
  supersedeRecord(link: SupersessionLink): Promise<MemoryRecord | undefined>;
  /** Undoes a supersession: the record is current again. Undefined when it is missing. */
  clearSupersession(recordId: string): Promise<MemoryRecord | undefined>;
  /**
   * The reverse links: records that these records superseded (whose `superseded_by` is one
   * of `recordIds`), newest first.
   */
  listSuperseded(recordIds: readonly string[]): Promise<MemoryRecord[]>;
}

/** One record retiring another (supersedeRecord). */
export interface SupersessionLink {
  /** The older record, marked superseded. */
  recordId: string;
  /** The newer record of the same namespace that replaces it. */
  supersededBy: string;
  /** ISO time of the supersession; default now. */
  at?: string;
  /** Why, in a few words (kept as the older record's `superseded_reason`). */
  reason?: string;
}

export interface ListRecordsOptions {
  /** Exact namespace; omitted lists every namespace. */
  namespace?: string;
  /** Only records of this observation type. */
  observationType?: ObservationType;
  /** Only records created at or after this ISO time. */
  since?: string;
  /** Only records created before this ISO time. */
  until?: string;
  /** Only records of this strategy (`llm-summary`, `compaction`, …). */
  strategy?: string;
  /** Only records nothing superseded (`superseded_by` unset). */
  current?: boolean;
  /** Most records on the page. */
  limit: number;
  /** Records skipped before the page. */
  offset?: number;
  /**
   * False: the page only, `total` not counted (reads -1). Retrieval lists a project's newest
   * records on every prompt and needs no total: on PostgreSQL that is one statement less.
   */
  count?: boolean;
}

export interface RecordPage {
  /** Newest first. */
  items: MemoryRecord[];
  /** How many records match, on every page; -1 when the listing asked `count: false`. */
  total: number;
}
