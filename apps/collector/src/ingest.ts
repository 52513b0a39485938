import { promptFromBody } from '@kiro-learn/retrieval';
import {
  type Event,
  EventSchema,
  isWindowReset,
  type MemoryRecord,
  MemoryRecordSchema,
  type PostEventResponse,
  scrubEvent,
  scrubRecord,
} from '@kiro-learn/schema';
import { z } from 'zod';
import type { AppContext } from './context.js';
import { httpError } from './errors.js';
import { parseWith } from './http/respond.js';
import { retrieveWithin } from './retrieve.js';

/**
 * EventSchema with zod's generated fast path: a valid event parses in about half the time.
 * Input the fast path does not accept goes through the schema's own parser, so the schema
 * stays the one definition of an event and errors read exactly as before.
 */
export const EventParser = z.compile(EventSchema);

/**
 * Whether an event goes to its project's pending buffer. The MCP server's `note` events
 * record what a save_* tool stored as a memory record already: extracting them again
 * would store every saved memory twice.
 */
export function isExtractable(event: Event): boolean {
  return !(event.kind === 'note' && event.source.surface === 'mcp');
}

/** How an event is stored besides the defaults of POST /v1/events. */
export interface IngestOptions {
  /**
   * From an import: no capture gate (the user asked for it), no pending-buffer entry (its
   * records come with it), nothing on the live stream.
   */
  imported?: boolean;
  /** When the event first arrived (an import keeps the exported time). */
  receivedAt?: string;
  /** Posted by a hook (`?hook=1`): a repeat of the same hook within seconds is stored once. */
  hook?: boolean;
}

/**
 * A namespace is an identity, so it is never rewritten: two projects whose ids differ only
 * in a secret would merge. One the scrubber would change is refused instead.
 */
export function refuseSecretNamespace(ctx: AppContext, namespace: string): void {
  if (ctx.scrubber.text(namespace) !== namespace) {
    throw httpError(
      400,
      'namespace contains text the privacy scrubber redacts (a secret or a <private> tag); choose another actor or project id',
    );
  }
}

/**
 * POST /v1/events: validate → scrub → capture gate (a paused
 * or ignored project stores nothing and gets no context) → (a hook's repeat: answered,
 * not stored) → store (with its pending-buffer entry, in one
 * transaction; a duplicate `event_id` stores nothing) → tell listeners → optional inline
 * retrieval for prompts. The 200 goes out only after the store committed.
 */
export async function ingestEvent(
  ctx: AppContext,
  input: unknown,
  retrieval?: 'prompt' | 'session_start',
  options: IngestOptions = {},
): Promise<PostEventResponse> {
  const started = performance.now();
  const parsed = parseWith(EventParser, input, 'event');
  refuseSecretNamespace(ctx, parsed.namespace);
  const event = scrubEvent(parsed, ctx.scrubber);
  const skipped = options.imported ? undefined : ctx.captureGate(event);
  if (skipped) {
    ctx.metrics.ingested.inc({ kind: event.kind, outcome: 'skipped' });
    return { event_id: event.event_id, stored: false, skipped };
  }
  // The same hook fired twice (two configurations of one agent): stored once, and the
  // repeat gets no context, so the agent does not read it twice either.
  const remembered = options.hook === true;
  if (remembered && ctx.recentHooks.repeatOf(event)) {
    ctx.metrics.ingested.inc({ kind: event.kind, outcome: 'duplicate' });
    return { event_id: event.event_id, stored: false };
  }
  // A prompt to retrieve for: its retrieval (and its embedding) starts now, while the event
  // is stored. Nothing it reads depends on the prompt's own event (a window reset, which
  // does, is a note), and on a team server the store's commit waits for a WAL flush that
  // the answer no longer waits behind. The answer still goes out only after the commit.
  // Team memory learns whether the project is shared from its events: this one first.
  const prompting = retrieval === 'prompt' && event.kind === 'prompt';
  if (prompting && !options.imported) {
    ctx.observeProject(event);
    ctx.prefetchPrompt(promptFromBody(event.body));
  }
  // What it shows is noted as shown to the session (its view, the retrieval log) only once
  // its answer is sent: a failed store answers 5xx, and a retrieval that outlasts the
  // budget is answered without its context; either way the agent never sees it.
  let deliver: (delivered: boolean) => void = () => {};
  const delivered = new Promise<boolean>((resolve) => {
    deliver = resolve;
  });
  const early = prompting ? retrieveFor(ctx, event, 'prompt', delivered) : undefined;
  let stored: boolean;
  try {
    ({ stored } = await ctx.storage.putEvent(event, {
      pending: !options.imported && isExtractable(event),
      ...(options.receivedAt ? { receivedAt: options.receivedAt } : {}),
    }));
  } catch (error) {
    deliver(false);
    if (remembered) ctx.recentHooks.forget(event);
    throw error;
  }
  ctx.metrics.ingestSeconds.observe((performance.now() - started) / 1000);
  ctx.metrics.ingested.inc({ kind: event.kind, outcome: stored ? 'stored' : 'duplicate' });
  if (stored && !options.imported) ctx.hub.emit({ type: 'event', event });

  const response: PostEventResponse = { event_id: event.event_id, stored };
  // Prompts get context for their text; a session start (any kind, usually the hook's
  // `note`) gets the project's most useful recent records.
  const startsSession = retrieval === 'session_start';
  // The agent's context was compacted (its compaction hook): what it held before is
  // memory again. A session start says so itself (its reason).
  if (stored && !options.imported && !startsSession && isWindowReset(event)) {
    await ctx.windowReset({ namespace: event.namespace, sessionId: event.session_id });
  }
  if (!startsSession && !prompting) return response;

  const prompt = startsSession ? '' : promptFromBody(event.body);
  const outcome = await (early ?? retrieveFor(ctx, event, 'session_start'));
  // A duplicate (stored: false) is answered with its context too, as before the retrieval
  // started early: that answer goes out, so what it shows counts as shown.
  deliver(outcome.late !== true);
  const label = outcome.timedOut
    ? 'timeout'
    : outcome.error
      ? 'error'
      : outcome.records.length > 0
        ? 'ok'
        : 'empty';
  ctx.metrics.retrievalSeconds.observe(outcome.latencyMs / 1000, { outcome: label });
  if (outcome.semantic) ctx.notePrompt(outcome.semantic);
  if (outcome.error) ctx.logger.warn('retrieval failed', { error: outcome.error });
  ctx.hub.emit({
    type: 'retrieval',
    retrieval: {
      namespace: event.namespace,
      sessionId: event.session_id,
      eventId: event.event_id,
      query: startsSession ? '(session start)' : prompt.slice(0, 4096),
      recordIds: [...outcome.records],
      scores: [...(outcome.scores ?? [])],
      latencyMs: outcome.latencyMs,
      timedOut: outcome.timedOut,
      budgetCut: outcome.budgetCut ?? false,
      ...(outcome.error ? { error: outcome.error } : {}),
      createdAt: new Date().toISOString(),
    },
  });
  response.retrieval = {
    context: outcome.context,
    records: [...outcome.records],
    latency_ms: Math.round(outcome.latencyMs * 100) / 100,
  };
  return response;
}

/** The event's retrieval within the budget: a prompt's context, or a session start's. */
function retrieveFor(
  ctx: AppContext,
  event: Event,
  kind: 'prompt' | 'session_start',
  delivered?: Promise<boolean>,
): ReturnType<typeof retrieveWithin> {
  const reason = kind === 'session_start' ? sessionStartReason(event) : undefined;
  return retrieveWithin(
    kind === 'session_start' ? ctx.sessionStart : ctx.retrieve,
    {
      namespace: event.namespace,
      prompt: kind === 'session_start' ? '' : promptFromBody(event.body),
      sessionId: event.session_id,
      eventId: event.event_id,
      ...(reason ? { reason } : {}),
      ...(delivered ? { delivered } : {}),
    },
    ctx.settings.retrieval.budgetMs,
  );
}

/**
 * Why a session starts, from the session-start note's `source` (Claude Code and the agents
 * copying its payload: `startup`, `resume`, `clear`, `compact`).
 */
function sessionStartReason(event: Event): string | undefined {
  if (event.body.type !== 'json') return undefined;
  const data = event.body.data;
  if (!data || typeof data !== 'object') return undefined;
  const source = (data as { source?: unknown }).source;
  return typeof source === 'string' ? source : undefined;
}

/**
 * A memory record as POST /v1/memories and import take it: validated, its namespace
 * checked, scrubbed (a field scrubbing lengthened is cut back to its limit).
 */
export function parseRecord(ctx: AppContext, input: unknown): MemoryRecord {
  const record = parseWith(MemoryRecordSchema, input, 'memory record');
  refuseSecretNamespace(ctx, record.namespace);
  // scrubRecord cuts a field that scrubbing lengthened back to its limit, so a valid
  // record stays valid.
  return scrubRecord(record, ctx.scrubber);
}
