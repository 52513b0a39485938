/** A prompt to find context for (the shape of @kiro-learn/retrieval's `retrieve`). */
export interface RetrieveRequest {
  namespace: string;
  prompt: string;
  sessionId?: string;
  eventId?: string;
  /**
   * At a session start, why it (re)starts as the agent said it (`startup`, `resume`,
   * `clear`, `compact`): after a compaction the session's own records are memory again.
   */
  reason?: string;
  /**
   * A prompt's retrieval started before its event was stored: resolves true once the answer
   * can go out (the store committed), false when it cannot. Until then nothing is noted as
   * shown to the session (RetrieveRequest.delivered of @kiro-learn/retrieval).
   */
  delivered?: Promise<boolean>;
}

/** What a retrieval produced; @kiro-learn/retrieval's RetrievalOutcome fits. */
export interface RetrieveOutcome {
  context: string;
  records: readonly string[];
  latencyMs: number;
  /** Ranking scores aligned with `records`. */
  scores?: readonly number[];
  timedOut?: boolean;
  /** The context's token budget left records out or trimmed them. */
  budgetCut?: boolean;
  error?: string;
  /** How the semantic share went, when a model is loaded (see RetrievalOutcome.semantic). */
  semantic?: 'used' | 'timed_out' | 'failed';
}

/** The retrieval entry point the collector calls for `?retrieve=true` prompts. */
export type RetrieveFn = (request: RetrieveRequest) => Promise<RetrieveOutcome>;

/**
 * Runs a retrieval within a latency budget: past it, the prompt goes on with no context
 * rather than keep the agent waiting. Never throws.
 */
export async function retrieveWithin(
  retrieve: RetrieveFn,
  request: RetrieveRequest,
  budgetMs: number,
): Promise<RetrieveOutcome & { timedOut: boolean; late?: true }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
  });
  try {
    const result = await Promise.race([retrieve(request), late]);
    const latencyMs = performance.now() - started;
    // `late`: this budget ran out before the retrieval answered (whatever it finds later
    // is never shown), as opposed to the retrieval's own budget, which answers in time.
    if (result === 'late') {
      return { context: '', records: [], latencyMs, timedOut: true, late: true };
    }
    return { ...result, timedOut: result.timedOut ?? false };
  } catch (error) {
    const latencyMs = performance.now() - started;
    return { context: '', records: [], latencyMs, timedOut: false, error: String(error) };
  } finally {
    clearTimeout(timer);
  }
}
