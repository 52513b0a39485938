import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';

/** A prompt to find context for (the shape of @kiro-learn/retrieval's `retrieve`). */
export interface RetrieveRequest {
  namespace: string;
  prompt: string;
  sessionId?: string;
  eventId?: string;
}

/** What a retrieval produced; @kiro-learn/retrieval's RetrievalOutcome fits. */
export interface RetrieveOutcome {
  context: string;
  records: readonly string[];
  latencyMs: number;
  timedOut?: boolean;
  error?: string;
}

/** The retrieval entry point the collector calls for `?retrieve=true` prompts. */
export type RetrieveFn = (request: RetrieveRequest) => Promise<RetrieveOutcome>;

/** The fixed context format of DESIGN.md §3: one `###` block per record, best first. */
export function formatContext(records: readonly MemoryRecord[]): string {
  if (records.length === 0) return '';
  const blocks = records.map((r) => {
    const facts = r.facts.length > 0 ? `\n\n${r.facts.map((f) => `- ${f}`).join('\n')}` : '';
    return `### ${r.title}\n\n${r.summary}${facts}`;
  });
  return `## Prior observations from kiro-learn\n\n${blocks.join('\n\n')}\n`;
}

/**
 * A plain full-text retriever over storage: what the collector uses when no retrieval
 * package is wired in. Logs each retrieval like the real one does.
 */
export function storageRetriever(storage: StorageBackend, records: number): RetrieveFn {
  return async (request) => {
    const started = performance.now();
    const hits = await storage.searchRecords({
      namespace: request.namespace,
      query: request.prompt,
      limit: records,
    });
    const latencyMs = performance.now() - started;
    const outcome = {
      context: formatContext(hits.map((h) => h.record)),
      records: hits.map((h) => h.record.record_id),
      latencyMs,
    };
    void storage
      .logRetrieval({
        namespace: request.namespace,
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
        ...(request.eventId ? { eventId: request.eventId } : {}),
        query: request.prompt,
        recordIds: outcome.records,
        scores: hits.map((h) => h.score),
        latencyMs,
        timedOut: false,
        budgetCut: false,
      })
      .catch(() => {});
    return outcome;
  };
}

/**
 * Runs a retrieval within a latency budget: past it, the prompt goes on with no context
 * rather than keep the agent waiting. Never throws.
 */
export async function retrieveWithin(
  retrieve: RetrieveFn,
  request: RetrieveRequest,
  budgetMs: number,
): Promise<RetrieveOutcome & { timedOut: boolean }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  try {
    const result = await Promise.race([retrieve(request), late]);
    const latencyMs = performance.now() - started;
    if (result === 'late') return { context: '', records: [], latencyMs, timedOut: true };
    return { ...result, timedOut: result.timedOut ?? false };
  } catch (error) {
    const latencyMs = performance.now() - started;
    return { context: '', records: [], latencyMs, timedOut: false, error: String(error) };
  } finally {
    clearTimeout(timer);
  }
}
