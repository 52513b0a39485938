import { z } from 'zod';
import { EVENT_KINDS, EventSchema } from './event.js';
import { LIMITS } from './limits.js';
import { MemoryRecordSchema, OBSERVATION_TYPES } from './memory.js';
import { idString, NamespaceSchema, RecordIdSchema } from './primitives.js';

/** `{error, details?}`: every 4xx/5xx body. */
export const ErrorBodySchema = z.object({ error: z.string(), details: z.unknown().optional() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const HealthResponseSchema = z.object({ status: z.literal('ok'), version: z.string() });
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

export const RetrievalResultSchema = z.object({
  context: z.string(),
  records: z.array(RecordIdSchema),
  latency_ms: z.number().nonnegative(),
});
export type RetrievalResult = z.infer<typeof RetrievalResultSchema>;

export const PostEventResponseSchema = z.object({
  event_id: z.string(),
  stored: z.boolean(),
  retrieval: RetrievalResultSchema.optional(),
  /** Not stored because capture is off for the project (paused, ignored, excluded). */
  skipped: z.enum(['paused', 'ignored', 'excluded', 'home']).optional(),
});
export type PostEventResponse = z.infer<typeof PostEventResponseSchema>;

const limit = (fallback: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

export const ListEventsQuerySchema = z.object({
  namespace: NamespaceSchema.optional(),
  limit: limit(50, LIMITS.listLimit),
  cursor: z.string().regex(/^\d+$/, 'must be a cursor from a previous page').optional(),
  session_id: idString(LIMITS.idLength).optional(),
  kind: z.enum(EVENT_KINDS).optional(),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuerySchema>;

export const ListEventsResponseSchema = z.object({
  items: z.array(EventSchema),
  next_cursor: z.string().optional(),
});
export type ListEventsResponse = z.infer<typeof ListEventsResponseSchema>;

/**
 * `POST /v1/memories`: a memory record, and optionally the records of its project it
 * supersedes (they are kept, marked superseded by it).
 */
export const PostMemoryRequestSchema = MemoryRecordSchema.extend({
  supersedes: z.array(RecordIdSchema).min(1).max(LIMITS.supersedesItems).optional(),
});
export type PostMemoryRequest = z.infer<typeof PostMemoryRequestSchema>;

/** `POST /v1/memories/:record_id/supersession`: mark the record superseded by a newer one. */
export const SupersedeRequestSchema = z.object({
  superseded_by: RecordIdSchema,
  reason: z.string().min(1).max(LIMITS.supersededReasonLength).optional(),
});
export type SupersedeRequest = z.infer<typeof SupersedeRequestSchema>;

/**
 * `GET /v1/memories/:record_id/chain`: the record's supersession chain, oldest first: the
 * records it replaced (directly or through others), itself, and the newer ones that
 * replaced it up to the current one.
 */
export const RecordChainResponseSchema = z.object({
  record_id: RecordIdSchema,
  /** The newest record of the chain (the one that is current); the record itself when nothing superseded it. */
  current: RecordIdSchema,
  records: z.array(MemoryRecordSchema),
});
export type RecordChainResponse = z.infer<typeof RecordChainResponseSchema>;

export const PostMemoryResponseSchema = z.object({
  record_id: RecordIdSchema,
  stored: z.literal(true),
  /** Records it superseded: those it named, and those the supersession rules found. */
  superseded: z.array(RecordIdSchema).optional(),
});
export type PostMemoryResponse = z.infer<typeof PostMemoryResponseSchema>;

export const ListMemoriesQuerySchema = z.object({
  namespace: NamespaceSchema.optional(),
  limit: limit(50, LIMITS.listLimit),
  offset: z.coerce.number().int().min(0).default(0),
  type: z.enum(OBSERVATION_TYPES).optional(),
  /** `true`: only records nothing superseded. */
  current: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type ListMemoriesQuery = z.infer<typeof ListMemoriesQuerySchema>;

export const ListMemoriesResponseSchema = z.object({
  items: z.array(MemoryRecordSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type ListMemoriesResponse = z.infer<typeof ListMemoriesResponseSchema>;

export const SearchMemoriesQuerySchema = z.object({
  namespace: NamespaceSchema.optional(),
  query: z.string().max(64 * 1024),
  limit: limit(10, LIMITS.searchLimit),
  type: z.enum(OBSERVATION_TYPES).optional(),
  file: z.string().min(1).max(LIMITS.fileLength).optional(),
});
export type SearchMemoriesQuery = z.infer<typeof SearchMemoriesQuerySchema>;
/**
 * One search result: a memory record; `author` is set on a teammate's record that came
 * from the team memory server (its `namespace` is then the namespace searched).
 */
export const SearchHitSchema = MemoryRecordSchema.extend({
  author: z.string().min(1).max(128).optional(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;
export const SearchMemoriesResponseSchema = z.array(SearchHitSchema);

export const DeleteResponseSchema = z.object({ deleted: z.literal(true) });

export const StatsResponseSchema = z.object({
  events: z.object({ total: z.number(), by_kind: z.record(z.string(), z.number()) }),
  memories: z.object({ total: z.number(), by_type: z.record(z.string(), z.number()) }),
  projects: z.array(
    z.object({
      namespace: z.string(),
      events: z.number(),
      memories: z.number(),
      last_event_at: z.string().optional(),
    }),
  ),
});
export type StatsResponse = z.infer<typeof StatsResponseSchema>;
