import { OBSERVATION_TYPES } from '@kiro-learn/schema';
import { z } from 'zod';

// Structured results: each tool returns its text for the model and, as `structuredContent`,
// the same answer for programs, in the shape below (advertised as the tool's outputSchema;
// the SDK checks every result against it before it leaves the server). Failures are
// `isError` results with text only.

const observationType = z.enum(OBSERVATION_TYPES);

/** One record as a listing shows it. */
const RecordLine = z.object({
  record_id: z.string().describe('mr_… id; get_memories returns the full record.'),
  observation_type: observationType,
  created_at: z.string(),
  title: z.string(),
  gist: z.string().describe('The summary, cut to one short line.'),
  superseded_by: z
    .string()
    .optional()
    .describe('Set when a newer record replaced this one: its id (this one may be out of date).'),
  author: z
    .string()
    .optional()
    .describe("Set on a teammate's record from team memory: the member who shared it."),
});

/** A full memory record (the wire MemoryRecord). */
const Record = z
  .object({
    record_id: z.string(),
    namespace: z.string(),
    strategy: z.string(),
    title: z.string(),
    summary: z.string(),
    facts: z.array(z.string()),
    concepts: z.array(z.string()),
    files_touched: z.array(z.string()),
    observation_type: observationType,
    source_event_ids: z.array(z.string()),
    created_at: z.string(),
  })
  .loose();

/** What a save stored. */
const Saved = z.object({
  record_id: z.string(),
  source_event_id: z.string().describe('The note event holding the call, for get_event.'),
  observation_type: observationType,
  title: z.string(),
  superseded: z
    .array(z.string())
    .optional()
    .describe('Records this one superseded: those named, and those the supersession rules found.'),
});

/** Output schemas of the tools, by name. */
export const TOOL_OUTPUTS = {
  search_memory: z.object({
    query: z.string(),
    records: z.array(RecordLine).describe('Best first.'),
  }),
  get_memories: z.object({
    records: z.array(Record),
    missing: z.array(z.string()).describe('Ids that are not records of this project.'),
  }),
  timeline: z.object({
    around: z.string().describe('The point: "now", a record id or an ISO time.'),
    entries: z
      .array(
        z.object({
          time: z.string(),
          id: z.string(),
          kind: z.enum(['record', 'turn']),
          line: z.string(),
        }),
      )
      .describe('Oldest first.'),
  }),
  get_event: z.object({ event: z.record(z.string(), z.unknown()) }),
  save_session_summary: Saved,
  save_observation: Saved,
  forget_memory: z.object({ record_id: z.string(), title: z.string(), deleted: z.literal(true) }),
  undo_supersession: z.object({
    record_id: z.string(),
    title: z.string(),
    was_superseded_by: z.string().optional(),
    current: z.literal(true),
  }),
} as const;

/** The structured result of one tool. */
export type ToolOutput<N extends keyof typeof TOOL_OUTPUTS> = z.output<(typeof TOOL_OUTPUTS)[N]>;
