import { ensureDataDir } from '@kiro-learn/schema/node';
import { type Collector, createCollector } from './app.js';
import { loadSettings } from './config/load.js';
import { startMaintenance } from './data/maintenance.js';
import { pauses } from './data/pause.js';
import { CollectorError } from './errors.js';
import { isExtractable } from './ingest.js';
import { cliAddress, probe } from './lifecycle/client.js';
import { daemonFiles, removePidFile, writePidFile } from './lifecycle/files.js';
import { createLogger } from './log/logger.js';
import { createPipeline } from './pipeline.js';
import { createSemantic } from './semantic.js';
import { replaySpool } from './spool.js';
import { openCollectorStorage } from './storage.js';
import { VERSION } from './version.js';
import { viewerApp } from './viewer/index.js';

/** How the daemon runs. */
export interface DaemonOptions {
  /** Environment settings are read from (`KIRO_LEARN_*`). */
  env: NodeJS.ProcessEnv;
  /** Where human-readable log lines go besides the log file (a TTY), if anywhere. */
  pretty?: NodeJS.WritableStream;
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
  const logger = createLogger({
    file: files.log,
    level: settings.logLevel,
    maxBytes: settings.log.maxBytes,
    files: settings.log.files,
    ...(options.pretty ? { pretty: options.pretty } : {}),
  });
  for (const warning of loaded.warnings) logger.warn(`setting: ${warning}`);

  let opened: Awaited<ReturnType<typeof openCollectorStorage>>;
  try {
    opened = await openCollectorStorage(settings, files.database);
  } catch (error) {
    logger.close();
    throw error;
  }
  const { storage } = opened;
  const startedAt = Date.now();
  const { extractor, buffer } = createPipeline(storage, settings, logger);
  // Loads in a worker thread: /healthz answers meanwhile, retrieval is lexical until then.
  const semantic = createSemantic(storage, settings, logger);
  const collector = createCollector({
    storage,
    storageHealth: () => opened.health(),
    settings,
    logger,
    semantic,
    version: VERSION,
    drain: () => buffer.drain(),
    status: () => ({ extractor: extractor.name, ...buffer.status() }),
    ui: viewerApp({
      storage,
      version: VERSION,
      startedAt,
      extractor: () => extractor.name,
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
    await collector.close();
    logger.close();
    if (error instanceof CollectorError && error.code === 'port_in_use') {
      const running = await probe(cliAddress(options.env));
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
  // Events the hooks spooled while the collector was down, oldest first.
  void replaySpool(settings.home, collector, url, logger);
  writePidFile(files.pid, {
    pid: process.pid,
    host: settings.host,
    port: settings.port,
    version: VERSION,
    startedAt: new Date(startedAt).toISOString(),
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
      } finally {
        removePidFile(files.pid, process.pid);
        logger.info('collector stopped');
        logger.close();
      }
    })();
    return stopping;
  };
  return { collector, url, stop };
}
