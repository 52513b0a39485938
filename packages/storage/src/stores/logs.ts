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
  /** The project searched (exact namespace). */
  namespace: string;
  /** The agent session the prompt came from. */
  sessionId?: string;
  /** The prompt event the context was for. */
  eventId?: string;
  /** The query text searched. */
  query: string;
  /** The records in the context, in order. */
  recordIds: string[];
  /** Their ranking scores, in the same order. */
  scores: number[];
  /** How long the retrieval took, in milliseconds. */
  latencyMs: number;
  /** The latency budget expired before the search finished. */
  timedOut: boolean;
  /** The context token budget left records out or trimmed them. */
  budgetCut: boolean;
  /** What went wrong, when the retrieval swallowed an error. */
  error?: string;
}

export interface RetrievalLogEntry extends RetrievalLogInput {
  /** Grows with every line (LogQuery.afterId pages by it). */
  id: number;
  /** ISO time it was logged. */
  createdAt: string;
}

export interface ExtractionLogInput {
  /** The project extracted (exact namespace). */
  namespace: string;
  /** Which extractor ran (`acp:<agent>`, `builtin`, …). */
  extractor: string;
  /** `ok`: records stored; `skipped`: the batch gave no record; `failed`: see `error`. */
  status: 'ok' | 'skipped' | 'failed';
  /** Events in the batch. */
  batchSize: number;
  /** Records stored. */
  records: number;
  /** Tries it took (garbage output is retried). */
  attempts: number;
  /** How long the run took, in milliseconds. */
  durationMs: number;
  /** Why it failed or was skipped. */
  error?: string;
  /** ISO time the run started. */
  startedAt: string;
}

export interface ExtractionLogEntry extends ExtractionLogInput {
  /** Grows with every line (LogQuery.afterId pages by it). */
  id: number;
}
