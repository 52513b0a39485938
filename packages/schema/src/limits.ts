/** Limits of the wire contract (DESIGN.md §3 and §4). One place, named. */
export const LIMITS = {
  idLength: 128,
  /** `source.version` of an event. */
  versionLength: 64,
  /** `source.project_path` of an event. */
  pathLength: 4096,
  /** `role` of a message turn. */
  roleLength: 64,
  /** `strategy` of a memory record. */
  strategyLength: 64,
  namespacePartLength: 256,
  titleLength: 200,
  summaryLength: 4000,
  factLength: 500,
  conceptLength: 100,
  fileLength: 500,
  /** One of a record's `questions`. */
  questionLength: 500,
  /** `superseded_reason` of a memory record. */
  supersededReasonLength: 300,
  /** Records one saved record may name as superseded (`supersedes`). */
  supersedesItems: 20,
  listItems: 200,
  /** Serialized event body, in UTF-8 bytes. */
  bodyBytes: 1024 * 1024,
  /** Request body the collector accepts before answering 413. */
  requestBytes: 2 * 1024 * 1024,
  /** Body the shims send; larger bodies are truncated by type. */
  shimBodyBytes: 512 * 1024,
  /**
   * How deeply arrays and objects may nest in a request body (the event or record
   * itself counts as one level). Deeper documents are refused before they are parsed.
   */
  jsonDepth: 128,
  /** Free-form metadata on a memory record, serialized. */
  metadataBytes: 64 * 1024,
  queryTerms: 32,
  searchLimit: 100,
  /**
   * Highest revision of a shared record a team server takes. A revision is its author's
   * outbox position, which no machine comes near; a higher one (a bug, a hand-made push)
   * would make every later edit of the record stale.
   */
  teamRevision: 2_147_483_647,
  listLimit: 500,
} as const;

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 21100,
  retrievalBudgetMs: 500,
  retrievalRecords: 10,
  shimTimeoutMs: 2000,
  compressorCommand: 'kiro-cli acp --agent kiro-learn-compressor',
} as const;

export const TRUNCATION_MARKER = ' [truncated by kiro-learn]';
