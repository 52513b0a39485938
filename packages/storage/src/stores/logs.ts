/** The retrieval and extraction logs: what the viewer and `/metrics` show. */
export interface LogStore {
  /** Logs one retrieval (a prompt's context, or a session start's). */
  logRetrieval(entry: RetrievalLogInput): Promise<void>;
  /** Newest first; `since` (an ISO time) keeps those logged at or after it. */
  listRetrievals(
    query: LogQuery & { sessionId?: string; since?: string },
  ): Promise<RetrievalLogEntry[]>;
  /** Logs one extraction run. */
  logExtraction(entry: ExtractionLogInput): Promise<void>;
  /** Newest first. */
  listExtractions(query: LogQuery): Promise<ExtractionLogEntry[]>;
}

export interface LogQuery {
  /** Exact namespace; omitted lists every namespace. */
  namespace?: string;
  /** Most entries. */
  limit: number;
  /** Only entries logged after this id (for incremental polling). */
  afterId?: number;
}

export interface RetrievalLogInput {
  namespace: string;
  sessionId?: string;
  /** The prompt event the context was for. */
  eventId?: string;
  /** The query text searched. */
  query: string;
  /** The records in the context, in order. */
  recordIds: string[];
  /** Their ranking scores, in the same order. */
  scores: number[];
  latencyMs: number;
  /** The latency budget expired before the search finished. */
  timedOut: boolean;
  /** The context token budget left records out or trimmed them. */
  budgetCut: boolean;
  /** What went wrong, when the retrieval swallowed an error. */
  error?: string;
}

export interface RetrievalLogEntry extends RetrievalLogInput {
  id: number;
  createdAt: string;
}

export interface ExtractionLogInput {
  namespace: string;
  /** Which extractor ran (`acp:<agent>`, `builtin`, …). */
  extractor: string;
  status: 'ok' | 'skipped' | 'failed';
  /** Events in the batch. */
  batchSize: number;
  /** Records stored. */
  records: number;
  /** Tries it took (garbage output is retried). */
  attempts: number;
  durationMs: number;
  /** Why it failed or was skipped. */
  error?: string;
  /** ISO time the run started. */
  startedAt: string;
}

export interface ExtractionLogEntry extends ExtractionLogInput {
  id: number;
}
