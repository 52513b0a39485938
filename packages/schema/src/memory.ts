import { z } from 'zod';
import { nestsDeeperThan } from './depth.js';
import { LIMITS } from './limits.js';
import {
  IsoDateTimeSchema,
  idString,
  NamespaceSchema,
  RecordIdSchema,
  UlidSchema,
} from './primitives.js';
import { utf8Length } from './utf8.js';

export const OBSERVATION_TYPES = [
  'tool_use',
  'decision',
  'error',
  'discovery',
  'pattern',
  'session_summary',
] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

const list = (itemMax: number) => z.array(z.string().min(1).max(itemMax)).max(LIMITS.listItems);

/**
 * Free-form, strategy-specific data (compaction chains, edit history). Optional on the
 * wire, so version-1 clients that never send it stay valid.
 */
export const RecordMetadataSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  // Depth first, and alone: serializing a deeper value would exhaust the stack.
  if (nestsDeeperThan(value, LIMITS.jsonDepth - 1)) {
    ctx.addIssue({
      code: 'custom',
      message: `metadata must nest at most ${LIMITS.jsonDepth - 1} levels deep`,
    });
    return;
  }
  if (utf8Length(JSON.stringify(value)) > LIMITS.metadataBytes) {
    ctx.addIssue({
      code: 'custom',
      message: `metadata must serialize to at most ${LIMITS.metadataBytes} bytes`,
    });
  }
});

export const MemoryRecordSchema = z.object({
  record_id: RecordIdSchema,
  namespace: NamespaceSchema,
  strategy: idString(LIMITS.strategyLength),
  title: z.string().min(1).max(LIMITS.titleLength),
  summary: z.string().min(1).max(LIMITS.summaryLength),
  facts: list(LIMITS.factLength),
  concepts: list(LIMITS.conceptLength),
  files_touched: list(LIMITS.fileLength),
  observation_type: z.enum(OBSERVATION_TYPES),
  source_event_ids: z.array(UlidSchema).min(1).max(10_000),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema.optional(),
  metadata: RecordMetadataSchema.optional(),
  /**
   * Questions this record answers, in the words a person would ask them: what an LLM
   * extractor wrote for it (doc2query), and the request of a question-only turn this turn
   * answered. Indexed as a field of its own, weighted below title, summary and facts.
   * Optional (empty when absent), so older records and export files stay valid.
   */
  questions: list(LIMITS.questionLength).optional(),
  /**
   * Set when a newer record of the same project retired this one (a fact that changed, a
   * decision reversed): its record_id. The record is kept, shown as superseded, and
   * current again when the link is undone or the newer record deleted.
   */
  superseded_by: RecordIdSchema.optional(),
  /** When it was superseded (with `superseded_by`). */
  superseded_at: IsoDateTimeSchema.optional(),
  /** Why, in a few words (`same file src/queue.ts; changed value: redis → sqs`). */
  superseded_reason: z.string().min(1).max(LIMITS.supersededReasonLength).optional(),
});

export type MemoryRecord = z.infer<typeof MemoryRecordSchema>;

/** The fields a person may edit on a stored record (the viewer's edit form). */
export const MemoryRecordPatchSchema = z
  .object({
    title: MemoryRecordSchema.shape.title,
    summary: MemoryRecordSchema.shape.summary,
    facts: MemoryRecordSchema.shape.facts,
    concepts: MemoryRecordSchema.shape.concepts,
    files_touched: MemoryRecordSchema.shape.files_touched,
    observation_type: MemoryRecordSchema.shape.observation_type,
    questions: z.array(z.string().min(1).max(LIMITS.questionLength)).max(LIMITS.listItems),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'patch must change at least one field');

export type MemoryRecordPatch = z.infer<typeof MemoryRecordPatchSchema>;
