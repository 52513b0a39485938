import { type Event, type MemoryRecord, MemoryRecordSchema, newRecordId } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import { BufferError } from '../errors.js';
import {
  type ChainHead,
  COMPACTION_STRATEGY,
  type CompactionMetadata,
  renderHead,
} from './chain.js';
import { projectFilesOf, retentionKind } from './classify.js';
import { digestEvent } from './digest.js';
import { reconcileFacts } from './integrity.js';
import { type CompactionOptions, policyOf } from './options.js';
import { markerEvent, structuredEvent } from './reduce.js';
import type { SummarizeFn, SummarizeReply, SummaryMode } from './summarize.js';
import { eventTokens, type TokenCounter } from './tokens.js';

/** What compaction did to one batch. */
export interface CompactionReport {
  /** Summary records written, oldest first (one per pass). */
  recordIds: string[];
  /** Summarizer calls made. */
  passes: number;
  /** Estimated tokens of the batch's prompt before and after. */
  tokensBefore: number;
  tokensAfter: number;
  /** Events folded into summaries, dropped to a marker, cut to a preview, with digested fields. */
  archived: number;
  dropped: number;
  structured: number;
  digested: number;
  /** Nothing could be reclaimed: no model call was made, the batch went out as it was. */
  exhausted: boolean;
  /** The compacted prompt still exceeds maxPromptTokens (kept events alone are too large). */
  overBudget: boolean;
}

export interface CompactInput {
  storage: StorageBackend;
  namespace: string;
  /** The batch's events, oldest first. */
  events: readonly Event[];
  /** The batch's pending entries. */
  eventIds: readonly string[];
  /** Index in `events` where the protected tail starts. */
  tailFrom: number;
  options: Readonly<CompactionOptions>;
  summarize: SummarizeFn;
  countTokens: TokenCounter;
  /** The chain so far. */
  head: ChainHead | undefined;
  now: () => number;
}

/** A compacted batch, ready for the extractor. */
export interface Compacted {
  /** Reduced copies in the original order (markers keep their event's id). */
  events: Event[];
  /** Pending entries still to remove once extracted (archived ones went with their summary). */
  eventIds: string[];
  /** The chain head, rendered for the extraction prompt. */
  summary?: string;
  head: ChainHead | undefined;
  report: CompactionReport;
}

/** Most events one summary may cover (a record cites at most 10 000). */
const MAX_CHUNK_EVENTS = 1000;

/**
 * Compacts one batch: each event is kept, digested, previewed, dropped to a marker or
 * archived by its kind's policy (the protected tail and critical kinds are never reduced).
 * Archived events go to the summarizer oldest first, in chunks within its budget; each
 * pass stores a summary record chained to the previous one and removes the pending
 * entries it covers in the same transaction, so progress survives a later failure. A
 * batch where nothing can be reclaimed costs no model call and is reported exhausted.
 */
export async function compactBatch(input: CompactInput): Promise<Compacted> {
  const { options, countTokens } = input;
  const tokens = (event: Event) => eventTokens(event, countTokens, options.eventOverheadTokens);
  const sum = (events: readonly Event[]) => events.reduce((total, e) => total + tokens(e), 0);
  const report: CompactionReport = {
    recordIds: [],
    passes: 0,
    tokensBefore: sum(input.events),
    tokensAfter: 0,
    archived: 0,
    dropped: 0,
    structured: 0,
    digested: 0,
    exhausted: false,
    overBudget: false,
  };

  const out: Event[] = [];
  const archive: Array<{ index: number; event: Event; digested: Event }> = [];
  input.events.forEach((event, index) => {
    const policy = index >= input.tailFrom ? 'keep_full' : policyOf(retentionKind(event), options);
    if (policy === 'critical') out.push(event);
    else if (policy === 'drop') {
      out.push(markerEvent(event, 'dropped'));
      report.dropped++;
    } else if (policy === 'keep_structured') {
      out.push(structuredEvent(event));
      report.structured++;
    } else {
      const digested = digestEvent(event, options.digestChars);
      if (digested !== event && JSON.stringify(digested.body) !== JSON.stringify(event.body))
        report.digested++;
      out.push(digested);
      if (policy === 'summarize_archive') archive.push({ index, event, digested });
    }
  });

  if (archive.length === 0 && sum(out) >= report.tokensBefore) {
    report.exhausted = true;
    report.tokensAfter = report.tokensBefore;
    return { events: [...input.events], eventIds: [...input.eventIds], head: input.head, report };
  }

  let head = input.head;
  const archivedIds = new Set<string>();
  for (const chunk of chunks(archive, head, input)) {
    const pass = (head?.pass ?? 0) + 1;
    const mode: SummaryMode =
      !head || (options.fullRewriteEvery > 0 && pass % options.fullRewriteEvery === 0)
        ? 'full_rewrite'
        : 'incremental';
    let reply: SummarizeReply;
    try {
      reply = checkReply(
        await input.summarize({
          namespace: input.namespace,
          mode,
          ...(mode === 'incremental' && head ? { previousSummary: head.summary } : {}),
          facts: head?.facts ?? {},
          events: chunk.map((item) => item.digested),
        }),
      );
    } catch (error) {
      if (error instanceof BufferError) throw error;
      throw new BufferError(
        'compaction_failed',
        `compaction pass ${pass} failed, nothing compacted: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const record = summaryRecord(
      input,
      chunk.map((item) => item.event),
      reply,
      head,
      pass,
      mode,
    );
    await input.storage.commitExtraction({
      namespace: input.namespace,
      records: [record.record],
      eventIds: record.record.source_event_ids,
    });
    head = record.head;
    report.recordIds.push(head.recordId);
    report.passes++;
    for (const item of chunk) {
      archivedIds.add(item.event.event_id);
      out[item.index] = markerEvent(item.event, 'archived', head.recordId);
    }
  }
  report.archived = archivedIds.size;
  const summary = head ? renderHead(head) : undefined;
  report.tokensAfter = sum(out) + (summary ? countTokens(summary) : 0);
  report.overBudget = report.tokensAfter > options.maxPromptTokens;
  return {
    events: out,
    eventIds: input.eventIds.filter((id) => !archivedIds.has(id)),
    ...(summary ? { summary } : {}),
    head,
    report,
  };
}

/** Archived events, oldest first, in chunks whose digested tokens fit the summarizer's budget. */
function* chunks<T extends { digested: Event }>(
  archive: readonly T[],
  head: ChainHead | undefined,
  input: CompactInput,
): Generator<T[]> {
  const { options, countTokens } = input;
  // The previous summary and facts go into every call too.
  const reserve = head ? countTokens(renderHead(head)) : 0;
  const budget = Math.max(1, options.summarizerTokens - reserve);
  let chunk: T[] = [];
  let size = 0;
  for (const item of archive) {
    const cost = eventTokens(item.digested, countTokens, options.eventOverheadTokens);
    if (chunk.length > 0 && (size + cost > budget || chunk.length >= MAX_CHUNK_EVENTS)) {
      yield chunk;
      chunk = [];
      size = 0;
    }
    chunk.push(item);
    size += cost;
  }
  if (chunk.length > 0) yield chunk;
}

/** A reply must be a summary; anything else fails the pass rather than inventing facts. */
function checkReply(reply: unknown): SummarizeReply {
  const r = reply as Partial<SummarizeReply> | undefined;
  const bad = (why: string) =>
    new BufferError('compaction_failed', `the summarizer's reply is not a summary: ${why}`);
  if (typeof r?.summary !== 'string' || r.summary.trim() === '') throw bad('no summary text');
  if (r.facts === null || typeof r.facts !== 'object') throw bad('no facts object');
  const facts = Object.fromEntries(
    Object.entries(r.facts).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  const obsolete = Array.isArray(r.obsolete)
    ? r.obsolete.filter((key): key is string => typeof key === 'string')
    : [];
  return {
    summary: r.summary,
    facts,
    obsolete,
    ...(typeof r.title === 'string' && r.title.trim() ? { title: r.title } : {}),
    ...(typeof r.summarizer === 'string' ? { summarizer: r.summarizer } : {}),
  };
}

const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

function summaryRecord(
  input: CompactInput,
  events: readonly Event[],
  reply: SummarizeReply,
  head: ChainHead | undefined,
  pass: number,
  mode: SummaryMode,
): { record: MemoryRecord; head: ChainHead } {
  const checked = reconcileFacts(head ?? { facts: {}, obsolete: [] }, reply);
  const first = events[0]!;
  const last = events.at(-1)!;
  const range = {
    first: first.event_id,
    last: last.event_id,
    from: first.valid_time,
    to: last.valid_time,
    events: events.length,
  };
  // Strictly after the parent, so "newest summary record" is always the chain's head.
  const at = Math.max(input.now(), head ? Date.parse(head.createdAt) + 1 : 0);
  const recordId = newRecordId();
  const repairs = checked.repairs.length ? `\nIntegrity check: ${checked.repairs.join('; ')}.` : '';
  const summary = cut(`${reply.summary.trim()}${repairs}`, 4000);
  const count = input.countTokens;
  const overhead = input.options.eventOverheadTokens;
  const tokens = (list: readonly Event[]) =>
    list.reduce((total, e) => total + eventTokens(e, count, overhead), 0);
  const metadata: CompactionMetadata = {
    parent: head?.recordId ?? null,
    pass,
    mode,
    range,
    facts: checked.facts,
    obsolete: checked.obsolete,
    changed: checked.changed,
    repairs: checked.repairs,
    tokens: {
      before: tokens(events),
      after: count(summary) + tokens(events.map((e) => markerEvent(e, 'archived', recordId))),
    },
    summarizer: reply.summarizer ?? 'summarizer',
  };
  const files = [...new Set(events.flatMap(projectFilesOf))]
    .map((file) => cut(file, 500))
    .slice(0, 200);
  const record: MemoryRecord = {
    record_id: recordId,
    namespace: input.namespace,
    strategy: COMPACTION_STRATEGY,
    title: cut(
      reply.title?.trim() ||
        `Earlier work of this session, compacted: ${events.length} events${files.length ? ` on ${files.slice(0, 2).join(', ')}${files.length > 2 ? ` and ${files.length - 2} more` : ''}` : ''}`,
      200,
    ),
    summary,
    facts: Object.entries(checked.facts)
      .map(([key, value]) => cut(`${key}: ${value}`, 500))
      .slice(0, 200),
    concepts: ['compaction'],
    files_touched: files,
    observation_type: 'session_summary',
    source_event_ids: events.map((e) => e.event_id),
    created_at: new Date(at).toISOString(),
    metadata: { compaction: metadata },
  };
  const parsed = MemoryRecordSchema.safeParse(record);
  if (!parsed.success)
    throw new BufferError(
      'compaction_failed',
      `summary record is invalid: ${parsed.error.message}`,
    );
  return { record, head: { ...metadata, recordId, createdAt: record.created_at, summary } };
}
