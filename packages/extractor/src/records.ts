import {
  LIMITS,
  type MemoryRecord,
  MemoryRecordSchema,
  newRecordId,
  OBSERVATION_TYPES,
  type ObservationType,
} from '@kiro-learn/schema';
import type { CodeChanges } from './code-changes.js';
import { truncate } from './text.js';

/** A record as an extractor proposes it, before ids, limits and validation. */
export interface RecordDraft {
  /** Observation type as written; anything not in OBSERVATION_TYPES drops the draft. */
  type: string;
  title: string;
  summary: string;
  facts: readonly string[];
  concepts: readonly string[];
  files: readonly string[];
  /** Event ids the record cites; ids outside the batch are ignored. */
  sources: readonly string[];
  /** Questions the record answers (doc2query, or the question-only turn it answered). */
  questions?: readonly string[];
  /**
   * Records this one replaces (an LLM extractor names them from the existing memories it
   * was shown); the pipeline checks and links them.
   */
  supersedes?: readonly string[];
  /**
   * The prompt event of the turn the record is about, when the record may be one of several
   * parts of a long turn (extracted batch by batch): kept as `metadata.turn_prompt_id`, so
   * the parts are merged into one record.
   */
  turn?: string;
  /** What the turn did to the code (the built-in extractor): kept as `metadata.code`. */
  code?: CodeChanges;
}

/** Where a draft lands: its namespace, the batch it came from, the strategy name. */
export interface RecordContext {
  /** Namespace of the batch. */
  namespace: string;
  /** Every event id of the batch, oldest first (the fallback citation). */
  batchIds: readonly string[];
  /** `llm-summary`, `builtin`, … */
  strategy: string;
  /** Creation time; now when omitted. */
  createdAt?: string;
}

function cleanList(items: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    const value = truncate(item.trim(), max);
    if (value.length > 0) seen.add(value);
    if (seen.size >= LIMITS.listItems) break;
  }
  return [...seen];
}

function isObservationType(value: string): value is ObservationType {
  return (OBSERVATION_TYPES as readonly string[]).includes(value);
}

/**
 * Turns a draft into a valid MemoryRecord, or undefined when it cannot be one (unknown
 * type, no title or summary). Lengths are cut to the schema's limits rather than
 * rejected: a long summary is still worth keeping.
 */
export function toRecord(draft: RecordDraft, context: RecordContext): MemoryRecord | undefined {
  const type = draft.type.trim();
  const title = truncate(draft.title.trim(), LIMITS.titleLength);
  const summary = truncate(draft.summary.trim(), LIMITS.summaryLength);
  if (!isObservationType(type) || title === '' || summary === '') return undefined;
  const inBatch = new Set(context.batchIds);
  const cited = [...new Set(draft.sources.filter((id) => inBatch.has(id)))];
  const record: MemoryRecord = {
    record_id: newRecordId(),
    namespace: context.namespace,
    strategy: context.strategy,
    title,
    summary,
    facts: cleanList(draft.facts, LIMITS.factLength),
    concepts: cleanList(draft.concepts, LIMITS.conceptLength),
    files_touched: cleanList(draft.files, LIMITS.fileLength),
    observation_type: type,
    source_event_ids: cited.length > 0 ? cited : [...context.batchIds],
    created_at: context.createdAt ?? new Date().toISOString(),
  };
  const questions = cleanList(draft.questions ?? [], LIMITS.questionLength);
  if (questions.length > 0) record.questions = questions;
  if (draft.turn || draft.code) {
    record.metadata = {
      ...(draft.turn ? { turn_prompt_id: draft.turn } : {}),
      ...(draft.code ? { code: { ...draft.code } } : {}),
    };
  }
  return MemoryRecordSchema.safeParse(record).success ? record : undefined;
}
