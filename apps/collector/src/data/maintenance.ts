import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageBackend } from '@kiro-learn/storage';
import type { CollectorSettings } from '../config/settings.js';
import type { Logger } from '../log/logger.js';
import { dailyBackupPath, pruneDailyBackups } from './backups.js';
import { applyRetention, type RetentionStep } from './retention.js';

const DAY_MS = 86_400_000;
const STATE_FILE = 'maintenance.json';

/** What one daily run did. */
export interface MaintenanceRun {
  at: string;
  backup?: { path: string; bytes: number };
  /** Old daily backups deleted (beyond `backup.keep`). */
  removedBackups: string[];
  retention: RetentionStep[];
  errors: string[];
}

export interface Maintenance {
  /** Runs the daily work if a day has passed since the last run (by the injected clock). */
  tick(): Promise<MaintenanceRun | undefined>;
  /**
   * Stops the timers and abandons a backup under way (shutdown must not wait for a copy
   * of a large database); resolves once the run under way has ended.
   */
  stop(): Promise<void>;
}

export interface MaintenanceOptions {
  storage: StorageBackend;
  settings: CollectorSettings;
  logger: Logger;
  now: () => number;
  /** How often to look at the clock; the work itself runs once a day. */
  checkEveryMs?: number;
}

/**
 * The collector's daily work: a backup (keeping the last `backup.keep`) and retention.
 * When it last ran is kept in the data dir, so restarts neither skip nor repeat a day.
 */
export function startMaintenance(options: MaintenanceOptions): Maintenance {
  const { storage, settings, logger, now } = options;
  const stateFile = join(settings.home, STATE_FILE);
  let running: Promise<MaintenanceRun | undefined> | undefined;
  const stopping = new AbortController();

  const lastRun = (): number => {
    try {
      return (
        Date.parse(
          (JSON.parse(readFileSync(stateFile, 'utf8')) as { last_run: string }).last_run,
        ) || 0
      );
    } catch {
      return 0;
    }
  };

  const run = async (): Promise<MaintenanceRun | undefined> => {
    const at = now();
    if (stopping.signal.aborted || at - lastRun() < DAY_MS) return undefined;
    const result: MaintenanceRun = {
      at: new Date(at).toISOString(),
      removedBackups: [],
      retention: [],
      errors: [],
    };
    // A server database (storage.url) is backed up with its own tools.
    if (settings.backup.keep > 0 && settings.storage.url === undefined) {
      try {
        const path = dailyBackupPath(settings.home, at);
        result.backup = { path, ...(await storage.backup(path, { signal: stopping.signal })) };
        result.removedBackups = pruneDailyBackups(settings.home, settings.backup.keep);
      } catch (error) {
        result.errors.push(`backup: ${(error as Error).message}`);
      }
    }
    // Stopped mid-backup: the rest waits for the next start (the day is not marked done).
    if (stopping.signal.aborted) return undefined;
    try {
      result.retention = await applyRetention(storage, settings, { now: at });
    } catch (error) {
      result.errors.push(`retention: ${(error as Error).message}`);
    }
    writeFileSync(stateFile, `${JSON.stringify({ last_run: result.at })}\n`, { mode: 0o600 });
    const dropped = result.retention.reduce((n, step) => n + step.counts.events, 0);
    if (result.errors.length > 0)
      logger.error('daily maintenance failed', { errors: result.errors });
    logger.info('daily maintenance', {
      ...(result.backup ? { backup: result.backup.path } : {}),
      removed_backups: result.removedBackups.length,
      events_dropped: dropped,
    });
    return result;
  };

  const tick = () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
  const check = () => {
    tick().catch((error: unknown) => logger.error('daily maintenance failed', { error }));
  };
  const timer = setInterval(check, options.checkEveryMs ?? 3_600_000);
  timer.unref();
  // The first check soon after start-up, not during it.
  const first = setTimeout(check, 60_000);
  first.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      stopping.abort();
      await running?.catch(() => undefined);
    },
  };
}
