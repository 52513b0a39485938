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

// One module per agent (src/agents/<agent>/): its payload types, its mapping, its
// installer. The mappings alone are also `@kiro-learn/shims/agents`.
export * from './agents/index.js';
export { INSTALLERS } from './agents/installers.js';
export { AUTOSTART_WINDOW_MS, startCollectorInBackground } from './autostart.js';
export { defaultBundleDir } from './bundles.js';
export { ShimsError, type ShimsErrorCode } from './errors.js';
export { INSTALL_SURFACES, type InstallSurface } from './init/detect.js';
// Launchers: the hook launcher's fast path; NODE_EXTRA_CA_CERTS moved aside on Node < 22.
export {
  FAST_PATH_DEADLINES,
  FAST_PATH_FILE_MARK,
  FAST_PATH_MARK,
  findBash,
  findCat,
  findCurl,
  launcherBash,
  launcherCurl,
  launcherTransport,
  nodePathReasons,
} from './init/fast-path.js';
export type { AgentInstaller, InstallContext, InstallScope } from './init/installer.js';
export {
  caCertsAside,
  HOOK_LAUNCHER,
  hookCommand,
  hookLauncher,
  type LauncherOptions,
  MCP_LAUNCHER,
  PORTABLE_DATA_DIR,
  pluginHookCommand,
  pluginLauncher,
  prepareHookTmp,
} from './init/launcher.js';
export { isOurCommand, MCP_SERVER_NAME, type McpLaunch } from './init/merge.js';
export {
  atLeast,
  chooseNode,
  HOOK_NODE_FLOOR,
  MCP_NODE_FLOOR,
  type NodeChoice,
  nodeStartMs,
  nodeVersion,
} from './init/node.js';
// `kiro-learn init` / `uninstall`: plan (read-only, also the dry run), then apply.
export {
  applyPlan,
  detectSurfaces,
  type FileChange,
  formatPlan,
  type InitOptions,
  type Plan,
  planInit,
  planUninstall,
  shellQuote,
  type UninstallOptions,
} from './init/plan.js';
// The hook scripts init copied into the data dir: their versions, and refreshing them.
export {
  type HookScript,
  hookScriptVersion,
  installedHookScripts,
  refreshHookScripts,
} from './init/scripts.js';
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
// One hook from payload to answer, the same on both paths: the shim's own process, and the
// collector's `POST /v1/hooks/:surface` for the launcher's fast path.
export {
  type HookInput,
  handleHook,
  type PreparedHook,
  prepareHook,
  type RecordHook,
} from './prepare.js';
// Running one hook: payload → Event → collector, context to stdout.
export { captureDisabled, type RunOptions, runHook } from './run.js';
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
export { capBody, prefixBytes } from './truncate.js';
export { SHIM_VERSION } from './version.js';
