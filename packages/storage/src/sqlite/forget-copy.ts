// Forgetting inside a copy of the database (a backup file), so a forget reaches the copies
// kiro-learn made too: the copy is rewritten without the scopes' rows, or left untouched
// when it holds none of them.
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ForgetCounts, ForgetScope } from '../backend.js';
import { StorageError } from '../errors.js';
import { noneForgotten } from '../forget-plan.js';
import { compiledExecArgv, compiledUrl } from './compiled.js';
import { countScope, deleteScope, namespacesOfDirectories } from './forget.js';

/** What forgetInCopy is asked: the scopes, and the directories that widen a project scope. */
export interface CopyForgetRequest {
  scopes: readonly ForgetScope[];
  /**
   * A scope with a namespace also covers the copy's other namespaces whose events name one
   * of these directories (see StorageBackend.projectNamespaces), each narrowed the same way.
   */
  directories?: readonly string[];
  /** Count only: the copy is left as it is. */
  dryRun?: boolean;
}

/** What forgetInCopy did to one copy. */
export interface CopyForgetResult {
  /** Rows the copy held of the scopes (all zero: the file was left as it was). */
  counts: ForgetCounts;
  /** The copy was rewritten without them. */
  rewritten: boolean;
}

function add(into: ForgetCounts, counts: ForgetCounts): void {
  into.events += counts.events;
  into.records += counts.records;
  into.pending += counts.pending;
  into.logs += counts.logs;
}

/** The scopes widened to every namespace of the copy that names one of the directories. */
function widen(sqlite: Database.Database, request: CopyForgetRequest): ForgetScope[] {
  const extra = namespacesOfDirectories(sqlite, request.directories ?? []);
  const out: ForgetScope[] = [];
  for (const scope of request.scopes) {
    out.push(scope);
    if (!('namespace' in scope) || scope.namespace === undefined) continue;
    for (const namespace of extra) {
      if (namespace !== scope.namespace) out.push({ ...scope, namespace } as ForgetScope);
    }
  }
  return out;
}

/**
 * Forgets `request.scopes` in the database file at `path`, which no process may have open
 * (a backup). A copy holding nothing of them is left untouched. Otherwise it is rewritten
 * through a temporary file beside it (a `VACUUM INTO` copy, its WAL included; rows deleted
 * with `secure_delete`, the full-text index merged, then VACUUM, journal and temporary
 * tables in memory: no free page, journal or temporary file keeps the text), which is
 * synced and renamed over `path`; a WAL left beside `path` goes too.
 * Throws StorageError `io` when the copy cannot be read or rewritten (an older schema, a
 * damaged file); the temporary file is removed and `path` left as it was.
 */
export function forgetInCopySync(path: string, request: CopyForgetRequest): CopyForgetResult {
  const temporary = `${path}.forget`;
  const counts = noneForgotten();
  let scopes: ForgetScope[];
  // A backup is in WAL mode (it copies the database's header), so even a read-only look
  // leaves an empty -wal and -shm beside it: those go again.
  const sidecars = ['-wal', '-shm'].map((suffix) => path + suffix);
  const created = sidecars.filter((file) => !existsSync(file));
  try {
    const reader = new Database(path, { readonly: true, fileMustExist: true });
    try {
      scopes = widen(reader, request);
      for (const scope of scopes) add(counts, countScope(reader, scope));
      if (request.dryRun || counts.events + counts.records + counts.pending + counts.logs === 0) {
        return { counts, rewritten: false };
      }
      // A consistent copy, the WAL's pages included (a copy set aside by restore keeps its WAL).
      rmSync(temporary, { force: true });
      reader.prepare('VACUUM INTO ?').run(temporary);
    } finally {
      reader.close();
      for (const file of created) rmSync(file, { force: true });
    }
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new StorageError('io', `cannot read the copy ${path}: ${String(error)}`, {
      cause: error,
    });
  }
  try {
    chmodSync(temporary, 0o600);
    const sqlite = new Database(temporary, { fileMustExist: true });
    try {
      // No WAL, no rollback journal on disk, VACUUM's temporary database in memory: the
      // deleted text goes to no other file.
      sqlite.pragma('journal_mode = MEMORY');
      sqlite.pragma('temp_store = MEMORY');
      sqlite.pragma('secure_delete = ON');
      sqlite.pragma('foreign_keys = ON');
      sqlite.transaction(() => {
        for (const scope of scopes) deleteScope(sqlite, scope);
      })();
      sqlite.exec("INSERT INTO memory_fts (memory_fts) VALUES ('optimize')");
      sqlite.exec('VACUUM');
    } finally {
      sqlite.close();
    }
    const fd = openSync(temporary, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    // The old file's WAL (now folded into the rewrite) must not sit beside the new one.
    for (const file of sidecars) rmSync(file, { force: true });
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new StorageError('io', `cannot rewrite the copy ${path}: ${String(error)}`, {
      cause: error,
    });
  }
  return { counts, rewritten: true };
}

/**
 * forgetInCopySync on a worker thread, so rewriting a large backup never stalls the
 * collector's event loop (hooks and retrieval go on meanwhile).
 */
export function forgetInCopy(path: string, request: CopyForgetRequest): Promise<CopyForgetResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiledUrl('forget-copy-worker.js'), {
      workerData: { path, request },
      execArgv: compiledExecArgv(),
    });
    let settled = false;
    worker.once(
      'message',
      (reply: { value: CopyForgetResult } | { error: { message: string; code?: string } }) => {
        settled = true;
        if ('value' in reply) resolve(reply.value);
        else reject(new StorageError('io', reply.error.message));
      },
    );
    worker.once('error', (error) => {
      settled = true;
      reject(new StorageError('io', `cannot rewrite the copy ${path}: ${String(error)}`));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new StorageError('io', `the copy's worker stopped (exit ${code})`));
    });
  });
}
