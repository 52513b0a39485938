import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StorageError } from '../errors.js';

/** An exclusive lock on a file, held by this process until released (or until it exits). */
export interface FileLock {
  readonly path: string;
  release(): void;
}

/**
 * Takes an exclusive lock on `path` (a small SQLite file, created when missing), or
 * throws StorageError `locked` at once when another connection holds it. The lock is the
 * operating system's: a process killed with -9 loses it with its file descriptors, so a
 * crash never leaves a stale lock behind. The collector locks its data dir with it, so
 * two collectors never share one database.
 */
export function lockFile(path: string, waitMs = 1000): FileLock {
  let db: Database.Database;
  try {
    // Owner-only, like the rest of the data dir; SQLite gives the lock's journal the
    // same mode as the file.
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
    // A short wait: isFileLocked's probe holds a read lock for an instant.
    db = new Database(path, { timeout: waitMs });
  } catch (error) {
    throw new StorageError('io', `cannot open the lock file ${path}: ${String(error)}`, {
      cause: error,
    });
  }
  try {
    // In exclusive locking mode the write lock taken by this transaction is kept after it.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (pid INTEGER); COMMIT');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new StorageError('locked', `${path} is locked by another process`, { cause: error });
    }
    throw new StorageError('io', `cannot lock ${path}: ${String(error)}`, { cause: error });
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}

/**
 * Whether another process holds `path` locked (lockFile), without taking the lock: a
 * crashed holder never counts, since the operating system dropped its lock.
 */
export function isFileLocked(path: string): boolean {
  if (!existsSync(path)) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 0 });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    return (error as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
  } finally {
    db?.close();
  }
}
