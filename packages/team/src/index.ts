/**
 * @kiro-learn/team: memory shared by a team. Two sides:
 * - a member's machine (`client/`): which projects are shared (a committed share file),
 *   the outbox that pushes their records to the team server in order and exactly once,
 *   and the team search retrieval asks in parallel with local storage;
 * - the team server (`server/`): the `/v1/team/*` routes members push to and search, and
 *   member tokens.
 * The wire between them is @kiro-learn/schema's team shapes. Both sides are hono apps and
 * functions over a `StorageBackend`: the kiro-learn collector composes them, and so can
 * another host.
 *
 * Everything exported here is public API.
 */

export { refuse, TeamError, type TeamErrorCode, teamErrorResponse } from './errors.js';
// What the package needs of its host: a logger, an activity feed, a body reader.
export {
  type ActivitySource,
  type HostActivity,
  type LogFields,
  type ReadJson,
  silentTeamLogger,
  type TeamLogger,
} from './host.js';
export { parseWith, readJsonBody } from './http.js';

// --- A member's machine ---

// The HTTP client of the team server (whoami, push, delete, search, recent).
export { createTeamClient, type TeamClient, type TeamIdentity } from './client/client.js';
// The outbox: shared records pushed in order, retried with back-off, acknowledged once.
export {
  OUTBOX_TIMING,
  type OutboxPusher,
  type OutboxState,
  type OutboxTiming,
  startOutboxPusher,
} from './client/outbox.js';
// `/v1/sharing`: the member machine's own status, push-now and reload routes.
export { sharingRoutes } from './client/routes.js';
// Team memory running in a collector: tracker + outbox + retrieval's RemoteSource.
export {
  type SharingStatus,
  startTeamRuntime,
  type TeamRuntime,
  type TeamRuntimeOptions,
  type TeamSettings,
} from './client/runtime.js';
// Which projects are shared: the committed share file, the user's opt-out list.
export {
  createShareTracker,
  readShareMarker,
  readUnshared,
  SHARE_FILE,
  type ShareMarker,
  type ShareTracker,
  UNSHARED_FILE,
  writeShareMarker,
  writeUnshared,
} from './client/shares.js';
// The runtime in force, swapped in place when `team join` or `team leave` reload settings.
export {
  createTeamSwitch,
  type TeamReload,
  type TeamSwitch,
  type TeamSwitchOptions,
} from './client/switch.js';

// --- The team server ---

// Member names and tokens (shown once, stored as their SHA-256), and who a request is.
export {
  hashToken,
  MEMBER_NAME,
  newMemberToken,
  requestMember,
  setRequestMember,
  TEAM_NAME,
} from './server/members.js';
// Rate limits: failed authentication per address, requests per member (429 + Retry-After).
export {
  createRateLimiter,
  type RateLimiter,
  type RateLimitOptions,
  type WaitSeconds,
} from './server/rate-limit.js';
// `/v1/team/*`: push, delete, search and recent, each acting for the request's member.
export { type RankedSearch, type TeamServerOptions, teamRoutes } from './server/routes.js';
