/**
 * @kiro-learn/schema: the wire contract of kiro-learn (DESIGN.md §3).
 *
 * zod schemas and their inferred types for events, memory records and every request and
 * response body; the limits as named constants; id and namespace helpers; and the privacy
 * scrubber every write path uses. This entry point loads no `node:*` module, so it runs in
 * browsers and workers too; Node-only helpers live at `@kiro-learn/schema/node`.
 *
 * Everything exported here is public API.
 */

export {
  DeleteResponseSchema,
  type ErrorBody,
  ErrorBodySchema,
  type HealthResponse,
  HealthResponseSchema,
  type ListEventsQuery,
  ListEventsQuerySchema,
  type ListEventsResponse,
  ListEventsResponseSchema,
  type ListMemoriesQuery,
  ListMemoriesQuerySchema,
  type ListMemoriesResponse,
  ListMemoriesResponseSchema,
  type PostEventResponse,
  PostEventResponseSchema,
  type PostMemoryRequest,
  PostMemoryRequestSchema,
  type PostMemoryResponse,
  PostMemoryResponseSchema,
  type RecordChainResponse,
  RecordChainResponseSchema,
  type RetrievalResult,
  RetrievalResultSchema,
  type SearchHit,
  SearchHitSchema,
  type SearchMemoriesQuery,
  SearchMemoriesQuerySchema,
  SearchMemoriesResponseSchema,
  type StatsResponse,
  StatsResponseSchema,
  type SupersedeRequest,
  SupersedeRequestSchema,
} from './api.js';
export {
  formatIssues,
  type ParseResult,
  parseOrThrow,
  SchemaError,
  type SchemaErrorCode,
  safeParse,
} from './errors.js';
export {
  bodyText,
  EVENT_KINDS,
  type Event,
  type EventBody,
  EventBodySchema,
  type EventKind,
  EventSchema,
  type EventSource,
  EventSourceSchema,
  isWindowReset,
  type JsonBody,
  JsonBodySchema,
  type MessageBody,
  MessageBodySchema,
  MessageTurnSchema,
  resetsWindow,
  SURFACES,
  type Surface,
  type TextBody,
  TextBodySchema,
} from './event.js';
export { forbiddenCharacter, IDENTIFIER_RULE, replaceForbidden } from './identifiers.js';
export {
  isRecordId,
  isUlid,
  newEventId,
  newRecordId,
  newUlid,
  RECORD_ID_PATTERN,
  ULID_PATTERN,
} from './ids.js';
export { inertLine, inertLines } from './inert.js';
export { DEFAULTS, LIMITS, TRUNCATION_MARKER } from './limits.js';
export {
  type MemoryRecord,
  type MemoryRecordPatch,
  MemoryRecordPatchSchema,
  MemoryRecordSchema,
  OBSERVATION_TYPES,
  type ObservationType,
  RecordMetadataSchema,
} from './memory.js';
export {
  buildNamespace,
  isNamespace,
  NAMESPACE_PATTERN,
  type NamespaceParts,
  parseNamespace,
} from './namespace.js';
export { type NewRecordFields, newRecord } from './new-record.js';
export {
  IsoDateTimeSchema,
  idString,
  NamespaceSchema,
  RecordIdSchema,
  UlidSchema,
} from './primitives.js';
export {
  createScrubber,
  type ExtraPattern,
  PRIVATE_REDACTION,
  redactPrivate,
  type Scrubber,
  type ScrubberOptions,
  type ScrubPattern,
  SECRET_PATTERNS,
  scrubEvent,
  scrubRecord,
  scrubRecordPatch,
  scrubText,
  scrubValue,
} from './scrub.js';
// Team memory's wire contract: a member's collector ↔ the team server (`/v1/team/*`).
export {
  ProjectIdSchema,
  TEAM_ACTOR_PREFIX,
  TEAM_NAME_PATTERN,
  type TeamDeleteResponse,
  TeamDeleteResponseSchema,
  type TeamItem,
  TeamItemSchema,
  TeamItemsResponseSchema,
  type TeamPushBody,
  TeamPushBodySchema,
  type TeamPushResponse,
  TeamPushResponseSchema,
  type TeamRecentQuery,
  TeamRecentQuerySchema,
  type TeamRecentResponse,
  TeamRecentResponseSchema,
  type TeamSearchQuery,
  TeamSearchQuerySchema,
  type TeamSearchResponse,
  TeamSearchResponseSchema,
  type TeamWhoamiResponse,
  TeamWhoamiResponseSchema,
  teamNamespace,
  teamOfNamespace,
} from './team.js';
export { utf8Length } from './utf8.js';
