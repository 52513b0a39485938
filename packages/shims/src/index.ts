/**
 * @kiro-learn/shims: the code that runs inside every agent hook, and the `kiro-learn init`
 * / `uninstall` installers.
 *
 * The hooks themselves are bundled single files (`dist/bin/<surface>.cjs`, bin
 * `kiro-learn-shim`); this entry point is the library the CLI and tests use: the mapping
 * from each agent's payloads to events, the spool, and the installer plans.
 *
 * Everything exported here is public API.
 */

export { AUTOSTART_WINDOW_MS, startCollectorInBackground } from './autostart.js';
export { defaultBundleDir } from './bundles.js';
export { ShimsError, type ShimsErrorCode } from './errors.js';
export { buildEvent, type EventContext } from './event.js';
export {
  type HookEvent,
  type MapResult,
  type Payload,
  SHIM_SURFACES,
  type ShimSurface,
} from './hook.js';
export { detectSurfaces, INSTALL_SURFACES, type InstallSurface } from './init/detect.js';
export { isOurCommand, MCP_SERVER_NAME, type McpLaunch } from './init/merge.js';
// `kiro-learn init` / `uninstall`: plan (read-only, also the dry run), then apply.
export {
  applyPlan,
  type FileChange,
  formatPlan,
  type InitOptions,
  type Plan,
  planInit,
  planUninstall,
  shellQuote,
  type UninstallOptions,
} from './init/plan.js';
// Whether a project may be captured: pause state, `.kiro-learn-ignore`, exclude globs.
export {
  activePause,
  type CaptureOff,
  type CaptureRules,
  type CaptureTarget,
  captureOff,
  globMatches,
  IGNORE_FILE,
  PAUSE_FILE,
  type Pause,
  type PauseState,
  readCaptureRules,
  readPauseState,
  writePauseState,
} from './paused.js';
// Running one hook: payload → Event → collector, context to stdout.
export { type RunOptions, runHook } from './run.js';
export { fileSession, SESSION_IDLE_MS } from './session.js';

// Nothing lost while the collector is down (the collector may drain the spool at start-up).
export {
  type DeliveryOutcome,
  type DrainOptions,
  type DrainResult,
  drainSpool,
  hasSpooled,
  SPOOL_MAX_BYTES,
  spoolEvent,
  spoolStatus,
} from './spool.js';
export { mapClaudeCode } from './surfaces/claude-code.js';
export { mapKiro } from './surfaces/kiro.js';
export { mapKiroIde } from './surfaces/kiro-ide.js';
export { lastAssistantText } from './transcript.js';
export { capBody, prefixBytes } from './truncate.js';
export { SHIM_VERSION } from './version.js';
