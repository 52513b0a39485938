import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { StorageError } from '../errors.js';
import { compiledExecArgv, compiledUrl } from './compiled.js';

/** What checkDatabase found. */
export type IntegrityReport = { ok: true } | { ok: false; problems: string[] };

/** Where the recovery steps are documented (every "damaged" message points there). */
export const CORRUPT_DATABASE_HELP =
  'see "The database is damaged" in docs/troubleshooting.md (stop the collector, move the file aside, start again; recover what can be read with sqlite3 .recover)';

/** True for the SQLite errors that mean the file is damaged or not a database at all. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** StorageError `corrupt` for a damaged database file, naming the file and the recovery. */
export function corruptError(path: string, error: unknown): StorageError {
  const reason = error instanceof Error ? error.message : String(error);
  return new StorageError(
    'corrupt',
    `the database ${path} is damaged (${reason}); ${CORRUPT_DATABASE_HELP}`,
    { cause: error },
  );
}

/**
 * Opens `path` read-only and runs SQLite's `quick_check` (every page and record is read;
 * index contents are not compared, which keeps it to seconds on a large file). Safe while
 * a collector writes to the database. At most `maxProblems` are listed.
 */
export function checkDatabase(path: string, maxProblems = 5): IntegrityReport {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.pragma(`quick_check(${maxProblems})`, { simple: false }) as Array<{
      quick_check: string;
    }>;
    const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
    return problems.length === 0 ? { ok: true } : { ok: false, problems };
  } catch (error) {
    return { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  } finally {
    db?.close();
  }
}

/**
 * checkDatabase on a worker thread: the check reads every page, which takes seconds on a
 * large file, and must not stall a collector that is starting to serve.
 */
export function checkDatabaseOffThread(path: string, maxProblems = 5): Promise<IntegrityReport> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(compiledUrl('integrity-worker.js'), {
        workerData: { path, maxProblems },
        execArgv: compiledExecArgv(),
      });
    } catch (error) {
      resolve({ ok: false, problems: [`the check could not run: ${String(error)}`] });
      return;
    }
    worker.unref();
    worker.once('message', (report: IntegrityReport) => resolve(report));
    worker.once('error', (error) =>
      resolve({ ok: false, problems: [`the check could not run: ${String(error)}`] }),
    );
  });
}
