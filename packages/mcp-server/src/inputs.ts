import {
  IsoDateTimeSchema,
  isRecordId,
  LIMITS,
  OBSERVATION_TYPES,
  RecordIdSchema,
  UlidSchema,
} from '@kiro-learn/schema';
import { z } from 'zod';

/** Trimmed text that must not be blank; the messages name the field so the model can fix it. */
const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, `${field} must not be blank`)
    .max(max, `${field} must be at most ${max} characters`);

const texts = (field: string, itemMax: number, maxItems: number) =>
  z
    .array(text(`each ${field} entry`, itemMax), { error: `${field} must be an array of strings` })
    .max(maxItems, `${field} may hold at most ${maxItems} entries`);

const count = (field: string, min: number, max: number, fallback: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`)
    .default(fallback);

const observationType = z.enum(OBSERVATION_TYPES, {
  error: `must be one of ${OBSERVATION_TYPES.join(', ')}`,
});

/** Longest free text accepted for one summary section (the summary itself is capped later). */
const SECTION_MAX = LIMITS.summaryLength;
/** Items per file list: two lists of 100 keep their union within the record's 200. */
const FILES_PER_LIST = LIMITS.listItems / 2;

/** Input schemas of the tools (zod objects: the MCP SDK derives the JSON Schema and validates). */
export const TOOL_INPUTS = {
  search_memory: z.object({
    query: text('query', 2000).describe('What to look for: words, a file name, an error message.'),
    limit: count('limit', 1, LIMITS.searchLimit, 10).describe('How many records at most (1-100).'),
    type: observationType.optional().describe('Only records of this observation type.'),
    file: text('file', LIMITS.fileLength)
      .optional()
      .describe('Only records that touched this file.'),
  }),
  get_memories: z.object({
    ids: z
      .array(RecordIdSchema, { error: 'ids must be an array of record ids' })
      .min(1, 'ids must name at least one record id')
      .max(50, 'ids may hold at most 50 record ids')
      .describe('Record ids (mr_…) from search_memory or timeline.'),
  }),
  timeline: z.object({
    around: z
      .string()
      .refine(
        (value) => isRecordId(value) || IsoDateTimeSchema.safeParse(value).success,
        'around must be a record id (mr_…) or an ISO-8601 date-time with offset',
      )
      .optional()
      .describe('A record id or ISO-8601 time to centre on; omitted: now.'),
    before: count('before', 0, 100, 10).describe('Entries at or before the point (0-100).'),
    after: count('after', 0, 100, 10).describe('Entries after the point (0-100).'),
  }),
  get_event: z.object({
    event_id: UlidSchema.describe("Event id (a ULID) from a record's source_event_ids."),
  }),
  save_session_summary: z.object({
    request: text('request', SECTION_MAX).describe('What the user asked for, in a sentence.'),
    investigated: text('investigated', SECTION_MAX).describe('What was looked into.'),
    learned: text('learned', SECTION_MAX).describe('What was learned: facts, causes, decisions.'),
    completed: text('completed', SECTION_MAX).describe('What was done.'),
    next_steps: text('next_steps', SECTION_MAX).describe('What remains to do.'),
    files_read: texts('files_read', LIMITS.fileLength, FILES_PER_LIST).describe('Paths read.'),
    files_modified: texts('files_modified', LIMITS.fileLength, FILES_PER_LIST).describe(
      'Paths changed.',
    ),
  }),
  save_observation: z.object({
    title: text('title', LIMITS.titleLength).describe('A short, specific title.'),
    summary: text('summary', LIMITS.summaryLength).describe('What to remember, self-contained.'),
    observation_type: observationType.describe('What kind of knowledge this is.'),
    facts: texts('facts', LIMITS.factLength, LIMITS.listItems)
      .default([])
      .describe('Short standalone facts.'),
    concepts: texts('concepts', LIMITS.conceptLength, LIMITS.listItems)
      .default([])
      .describe('Keywords and concepts, for search.'),
    files: texts('files', LIMITS.fileLength, LIMITS.listItems)
      .default([])
      .describe('Paths this is about.'),
    supersedes: z
      .array(RecordIdSchema)
      .max(LIMITS.supersedesItems)
      .default([])
      .describe(
        "Ids (mr_…) of this project's records this one replaces (a value changed, a decision reversed, something removed). They are kept, marked superseded by it.",
      ),
  }),
  forget_memory: z.object({
    record_id: RecordIdSchema.describe('Id (mr_…) of the record to delete.'),
  }),
  undo_supersession: z.object({
    record_id: RecordIdSchema.describe(
      'Id (mr_…) of a record marked superseded by mistake: it becomes current again.',
    ),
  }),
} as const;

/** The tool names, in the order they are listed. */
export type ToolName = keyof typeof TOOL_INPUTS;

/** The parsed arguments of one tool. */
export type ToolArgs<N extends ToolName> = z.output<(typeof TOOL_INPUTS)[N]>;
