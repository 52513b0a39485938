import { reapStaleAgents } from '@kiro-learn/extractor';
import { ensureDataDir } from '@kiro-learn/schema/node';
import { prepareHookTmp, refreshHookScripts } from '@kiro-learn/shims';
import { CORRUPT_DATABASE_HELP, type FileLock, lockFile, StorageError } from '@kiro-learn/storage';
import { type Collector, type CollectorOptions, createCollector } from './app.js';
import { loadSettings } from './config/load.js';
import { isLoopbackHost } from './config/settings.js';
import { startMaintenance } from './data/maintenance.js';
import { pauses } from './data/pause.js';
import { CollectorError } from './errors.js';
import { isExtractable } from './ingest.js';
import { cliAddress, otherDataDir, otherDataDirHelp, probe } from './lifecycle/client.js';
import { daemonFiles, readPidFile, removePidFile, writePidFile } from './lifecycle/files.js';
import { createLogger } from './log/logger.js';
import { createPipeline } from './pipeline.js';
import { searchBacklog } from './search-backlog.js';
import { createSemantic } from './semantic.js';
import { replaySpool } from './spool.js';
import { openCollectorStorage } from './storage.js';
import { VERSION } from './version.js';
import { viewerApp } from './viewer/index.js';
import { readerModels } from './viewer/models.js';

/** How the daemon runs. */
export interface DaemonOptions {
  /** Environment settings are read from (`KIRO_LEARN_*`). */
  env: NodeJS.ProcessEnv;
  /** Where human-readable log lines go besides the log file (a TTY), if anywhere. */
  pretty?: NodeJS.WritableStream;
  /** Team memory pacing (tests and benchmarks). */
  team?: CollectorOptions['team'];
}

/** A running daemon: the collector, where it listens, and its shutdown. */
export interface Daemon {
  collector: Collector;
  url: string;
  /** Graceful stop; resolves when the database is closed and the PID file removed. */
  stop(): Promise<void>;
}

/**
 * Starts the collector in this process: settings → data dir → log → database → HTTP →
 * PID file. Throws CollectorError (`invalid_settings`, `port_in_use`) with a message that
 * says what to change.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const loaded = loadSettings(options.env);
  if (!loaded.config) {
    throw new CollectorError(
      'invalid_settings',
      `invalid settings (${loaded.file} and KIRO_LEARN_* variables):\n${loaded.errors.map((e) => `  ${e}`).join('\n')}`,
    );
  }
  const settings = loaded.config;
  ensureDataDir(settings.home);
  const files = daemonFiles(settings.home);
  // One collector per data dir: a second one would extract the same batches twice.
  const lock = lockDataDir(files, settings.home, settings.port);
  // Written at once (the port is confirmed after listen): while the lock is held, the PID
  // file names its holder, so `kiro-learn stop` can always find a live collector.
  const pidInfo = {
    pid: process.pid,
    host: settings.host,
    port: settings.port,
    version: VERSION,
    startedAt: new Date().toISOString(),
  };
  writePidFile(files.pid, pidInfo);
  const logger = createLogger({
    file: files.log,
    level: settings.logLevel,
    maxBytes: settings.log.maxBytes,
    files: settings.log.files,
    ...(options.pretty ? { pretty: options.pretty } : {}),
  });
  for (const warning of loaded.warnings) logger.warn(`setting: ${warning}`);
  // Agents a killed predecessor left running (the lock says none is alive).
  const reaped = reapStaleAgents(files.agents);
  if (reaped.length > 0)
    logger.warn('stopped extraction agents left by a previous run', { pids: reaped });
  // After an upgrade the hook scripts init copied into the data dir are the old release's:
  // bring them up to date, so hooks and collector speak the same release.
  try {
    const refreshed = refreshHookScripts(settings.home);
    if (refreshed.length > 0) {
      logger.info('hook scripts refreshed', { files: refreshed.length, version: VERSION });
    }
  } catch (error) {
    logger.warn('hook scripts could not be refreshed', { error: (error as Error).message });
  }
  // The hook launcher's fast path keeps each payload here while it posts it.
  const leftovers = prepareHookTmp(settings.home);
  if (leftovers > 0) logger.info('deleted payloads killed hooks left behind', { files: leftovers });

  let opened: Awaited<ReturnType<typeof openCollectorStorage>>;
  try {
    opened = await openCollectorStorage(settings, files.database, {
      checkIntegrity: (report) => {
        if (report.ok) return;
        try {
          logger.error(`the database ${files.database} is damaged; ${CORRUPT_DATABASE_HELP}`, {
            problems: report.problems,
          });
        } catch {
          // Stopped meanwhile: the log is closed; status and doctor still tell.
        }
      },
    });
  } catch (error) {
    logger.error('cannot open the database', { error });
    logger.close();
    removePidFile(files.pid, process.pid);
    lock.release();
    if (error instanceof StorageError) {
      throw new CollectorError('start_failed', error.message, { cause: error });
    }
    throw error;
  }
  const { storage } = opened;
  const startedAt = Date.now();
  const agents = new AbortController();
  const { extractor, buffer } = createPipeline(storage, settings, logger, {
    signal: agents.signal,
    pidDir: files.agents,
  });
  // Loads in a worker thread: /healthz answers meanwhile, retrieval is lexical until then.
  const semantic = createSemantic(storage, settings, logger);
  // Lists, totals and the viewer read from a thread of their own (SQLite): never the loop's.
  const reads = opened.reads ?? storage;
  // One count kept for status, /metrics and the viewer alike.
  const backlog = searchBacklog(storage);
  const collector = createCollector({
    storage,
    reads,
    storageHealth: () => opened.health(),
    searchBacklog: backlog,
    settings,
    logger,
    semantic,
    version: VERSION,
    ...(options.team ? { team: options.team } : {}),
    // `team join` / `team leave` write these; the collector takes them without a restart.
    teamSettings: () => {
      const now = loadSettings(options.env);
      if (!now.config) throw new CollectorError('invalid_settings', now.errors.join('; '));
      return now.config.team;
    },
    drain: () => buffer.drain(),
    abortExtraction: () => agents.abort(),
    status: () => ({ extractor: extractor.name, ...buffer.status() }),
    ui: viewerApp({
      storage: reads,
      ...(opened.reads ? { models: readerModels(opened.reads) } : {}),
      teamRecords: (ids) => storage.sharing.teamRecords(ids),
      version: VERSION,
      startedAt,
      extractor: () => extractor.name,
      semantic: () => semantic.status(),
      searchBacklog: backlog,
      breakerState: (namespace) => buffer.breakerState(namespace),
      compaction: (namespace) => buffer.compactionStatus(namespace),
      paused: (namespace) => {
        const pause = pauses(settings.home, Date.now()).find(
          (p) => p.scope === 'all' || p.scope === namespace,
        );
        return pause && { since: pause.since, ...(pause.until ? { until: pause.until } : {}) };
      },
      extractNow: async (namespace) => {
        const run = await buffer.extractNow(namespace);
        if (run.status === 'failed') throw new Error(run.error ?? 'extraction failed');
      },
    }),
  });
  collector.onEventStored((event) => {
    if (isExtractable(event)) buffer.notify(event);
  });
  buffer.onExtraction((run) => {
    collector.reportExtraction(run);
    // New records: embed them off the ingest path.
    if (run.records > 0) semantic.catchUp();
  });
  let url: string;
  try {
    ({ url } = await collector.listen());
  } catch (error) {
    agents.abort();
    await collector.close();
    logger.close();
    removePidFile(files.pid, process.pid);
    lock.release();
    if (error instanceof CollectorError && error.code === 'port_in_use') {
      const address = cliAddress(options.env);
      const running = await probe(address);
      const other = otherDataDir(running, settings.home);
      if (other !== undefined) {
        const { held, fix } = otherDataDirHelp(address, other, running.pid);
        throw new CollectorError('port_in_use', `cannot start: ${held}; ${fix}`);
      }
      if (running.ok) {
        throw new CollectorError(
          'port_in_use',
          `a kiro-learn collector is already running (pid ${running.pid ?? '?'}) on port ${settings.port}`,
        );
      }
    }
    throw error;
  }
  await buffer.start();
  // Daily: a backup (keeping the last backup.keep) and retention.
  const maintenance = startMaintenance({ storage, settings, logger, now: Date.now });
  // What the first prompt would otherwise compile and prepare inside its budget (and, once
  // the model has loaded, the hybrid path too).
  void collector.warmUp();
  // Events the hooks spooled while the collector was down, oldest first.
  void replaySpool(settings.home, collector, url, logger);
  writePidFile(files.pid, {
    ...pidInfo,
    port: Number(new URL(url).port),
    // The hook launcher's fast path: it sends no token, and the route serves loopback only.
    hooks: isLoopbackHost(settings.host) && !settings.token,
  });
  logger.info('collector started', {
    url,
    pid: process.pid,
    version: VERSION,
    home: settings.home,
  });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info('collector stopping');
      try {
        await maintenance.stop();
        await collector.close();
        // The drain gives the embedder only what is left of the grace period. A model still
        // loading is given up, but the runtime call under way (a session being created, a
        // text being embedded) must end before the process does: exiting while the worker
        // is inside onnxruntime aborts the process (SIGABRT, exit code lost).
        await semantic.close();
      } finally {
        // The PID file goes last but one, and the lock last: while either is there, a
        // `kiro-learn stop` or `start` still sees this process as the data dir's collector.
        removePidFile(files.pid, process.pid);
        logger.info('collector stopped');
        logger.close();
        lock.release();
      }
    })();
    return stopping;
  };
  return { collector, url, stop };
}

/**
 * Takes the data dir's lock, or explains who holds it: "already running" (exit 0 for
 * `start`) when that collector serves the same port, else a refusal naming it.
 */
function lockDataDir(files: ReturnType<typeof daemonFiles>, home: string, port: number): FileLock {
  try {
    return lockFile(files.lock);
  } catch (error) {
    if (!(error instanceof StorageError && error.code === 'locked')) throw error;
    const holder = readPidFile(files.pid);
    if (!holder || holder.port === port) {
      throw new CollectorError(
        'port_in_use',
        `a kiro-learn collector is already running${holder ? ` (pid ${holder.pid})` : ''} on port ${port} with the data dir ${home}`,
      );
    }
    throw new CollectorError(
      'data_dir_locked',
      `the data dir ${home} is in use by another kiro-learn collector (pid ${holder.pid}, port ${holder.port}): stop it first (kiro-learn stop), or give this one its own data dir (KIRO_LEARN_HOME)`,
      { cause: error },
    );
  }
}
