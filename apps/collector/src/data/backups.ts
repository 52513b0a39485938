import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

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
