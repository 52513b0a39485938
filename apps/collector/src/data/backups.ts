import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type CopyForgetRequest, type ForgetCounts, forgetInCopy } from '@kiro-learn/storage';

/** Where backups go unless a file is named: the data dir's `backups/` folder. */
export const backupDir = (home: string) => join(home, 'backups');

const DAILY = /^daily-\d{8}T\d{6}Z\.db$/;
const stamp = (now: number) =>
  new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** The file of a backup asked for without a name. */
export const manualBackupPath = (home: string, now: number) =>
  join(backupDir(home), `kiro-learn-${stamp(now)}.db`);

/** The file of an automatic daily backup. */
export const dailyBackupPath = (home: string, now: number) =>
  join(backupDir(home), `daily-${stamp(now)}.db`);

/** Deletes all but the newest `keep` daily backups; returns the files deleted. */
export function pruneDailyBackups(home: string, keep: number): string[] {
  let names: string[];
  try {
    names = readdirSync(backupDir(home)).filter((name) => DAILY.test(name));
  } catch {
    return [];
  }
  const old = names.sort().reverse().slice(keep);
  for (const name of old) rmSync(join(backupDir(home), name), { force: true });
  return old;
}

/** Daily backups present, newest first. */
export function dailyBackups(home: string): string[] {
  try {
    return readdirSync(backupDir(home))
      .filter((name) => DAILY.test(name))
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

/** Copies set aside by `kiro-learn restore` beside the database. */
const BEFORE_RESTORE = /^kiro-learn\.db\.before-restore-\d{8}T\d{6}Z$/;
const MANUAL = /^kiro-learn-\d{8}T\d{6}Z\.db$/;

/**
 * Every copy of the database kiro-learn made in the data dir: the daily backups, backups
 * taken without a file name (`backups/`), and databases set aside by restore. Paths
 * relative to the data dir, sorted.
 */
export function backupCopies(home: string): string[] {
  const list = (dir: string, name: RegExp) => {
    try {
      return readdirSync(join(home, dir)).filter((file) => name.test(file));
    } catch {
      return [];
    }
  };
  return [
    ...list('backups', DAILY).map((file) => join('backups', file)),
    ...list('backups', MANUAL).map((file) => join('backups', file)),
    ...list('.', BEFORE_RESTORE),
  ].sort();
}

/** What a forget did to one copy of the database. */
export interface CopyForgotten {
  /** Relative to the data dir. */
  file: string;
  /** `rewritten` without the scope; `deleted` when it could not be rewritten; `holds` in a dry run. */
  action: 'rewritten' | 'deleted' | 'holds';
  counts?: ForgetCounts;
  /** Why a copy was deleted rather than rewritten. */
  reason?: string;
}

/**
 * Forgets the scopes in every copy kiro-learn made (backupCopies): a copy holding any of
 * them is rewritten without it, or deleted when it cannot be (a damaged file, an older
 * format); copies holding none are left as they are and not listed. With `dryRun`, lists
 * the copies that hold some of it.
 */
export async function forgetInCopies(
  home: string,
  request: CopyForgetRequest,
): Promise<CopyForgotten[]> {
  const out: CopyForgotten[] = [];
  for (const file of backupCopies(home)) {
    const path = join(home, file);
    try {
      const result = await forgetInCopy(path, request);
      const held =
        result.counts.events + result.counts.records + result.counts.pending + result.counts.logs;
      if (held === 0) continue;
      out.push({ file, action: request.dryRun ? 'holds' : 'rewritten', counts: result.counts });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (request.dryRun) {
        out.push({
          file,
          action: 'holds',
          reason: `cannot be read, so it will be deleted: ${reason}`,
        });
        continue;
      }
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      out.push({ file, action: 'deleted', reason: `it could not be rewritten: ${reason}` });
    }
  }
  return out;
}
