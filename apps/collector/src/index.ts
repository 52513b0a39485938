/**
 * kiro-learn: the collector daemon, the `kiro-learn` CLI and the viewer.
 *
 * Most users run the CLI (`kiro-learn start`). This entry point is for embedding and for
 * the packages that compose the daemon: build a collector over any StorageBackend, wire
 * the buffer's watcher to `onEventStored`, and start or stop it in-process.
 *
 * Everything exported here is public API.
 */

// What the collector reports to listeners (the SSE stream, the buffer's watcher).
export type { Activity, ActivityListener, RetrievalActivity } from './activity.js';
// The collector: HTTP API (DESIGN.md §3) + lifecycle, over a storage backend.
export { type Collector, type CollectorOptions, createCollector, type ListenInfo } from './app.js';
// The CLI's command registry (one file per command under src/commands/, loaded when run).
export {
  COMMAND_NAMES,
  type Command,
  type CommandIO,
  loadCommand,
  loadCommands,
  runCli,
} from './commands/index.js';
// One KIRO_LEARN_* variable per settings key, generated from the schema.
export {
  envName,
  OTHER_ENV_VARIABLES,
  type SettingEnvVariable,
  settingsEnvVariables,
} from './config/env.js';
// Settings: settings.json + KIRO_LEARN_* → schema → normalize → rules.
export { type LoadedSettings, loadSettings } from './config/load.js';
export { checkRules, type RuleFindings } from './config/rules.js';
export {
  type CollectorSettings,
  isLoopbackHost,
  LOG_LEVELS,
  type LogLevel,
  normalizeSettings,
  type SettingsFile,
  SettingsFileSchema,
} from './config/settings.js';
// Seams for other packages: the retrieval and search functions the collector calls.
export type { SearchFn } from './context.js';
// The daemon as `kiro-learn start --foreground` runs it, and where it keeps its files.
export { type Daemon, type DaemonOptions, startDaemon } from './daemon.js';
// The one error class.
export { CollectorError, type CollectorErrorCode } from './errors.js';
export { daemonFiles, type PidInfo } from './lifecycle/files.js';
// JSON-lines logging with rotation.
export {
  createLogger,
  type LogFields,
  type Logger,
  type LoggerOptions,
  silentLogger,
} from './log/logger.js';
// Prometheus metrics.
export { type CollectorMetrics, createMetrics } from './metrics.js';
export type { RetrieveFn, RetrieveOutcome, RetrieveRequest } from './retrieve.js';
// The embedding model of a collector: loaded in the background, vectors kept current.
export {
  createSemantic,
  type EmbedderLoader,
  type Semantic,
  type SemanticStatus,
} from './semantic.js';
export { VERSION } from './version.js';
