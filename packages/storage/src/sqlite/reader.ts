import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StorageError, type StorageErrorCode } from '../errors.js';
import { READ_METHODS, type StorageReader, type StorageReads } from '../reads.js';
import { compiledExecArgv, compiledUrl } from './compiled.js';
import type { ReadReply, ReadRequest, ReadWorkerData } from './read-worker.js';

/** Options of `openSqliteReader`. */
export interface SqliteReaderOptions {
  /** The database file (opened and migrated by openSqliteStorage first). */
  path: string;
  /** How long a read waits for a lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  /**
   * A module (URL or file path) whose exports are read models (`ReadModel`): `model(name,
   * …args)` runs one in the worker, beside the connection.
   */
  models?: URL | string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Call {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * StorageReads from a worker thread with a read-only connection of its own. better-sqlite3
 * runs every query synchronously, so on the collector's connection a read that scans, or
 * waits for a cold disk, stops the event loop: ingest, hooks and prompts all wait for it.
 * Here they do not. The worker starts with the first read and answers reads one at a time;
 * each sees everything committed before it began. Should the worker die, its reads reject
 * and the next read starts a new one.
 */
export function openSqliteReader(options: SqliteReaderOptions): StorageReader {
  const { models } = options;
  const worker = new ReaderWorker(
    resolve(options.path),
    options.busyTimeoutMs,
    models === undefined
      ? undefined
      : models instanceof URL
        ? models.href
        : pathToFileURL(resolve(models)).href,
  );
  // Every read is the same message to the worker: its name and its arguments.
  const reads = Object.fromEntries(
    READ_METHODS.map((method) => [method, (...args: unknown[]) => worker.call(method, args)]),
  ) as unknown as StorageReads;
  return {
    ...reads,
    model: (name, ...args) => worker.model(name, ...args),
    close: (graceMs?: number) => worker.close(graceMs),
  };
}

/**
 * The compiled worker. Under the TypeScript sources (tests, `@kiro-learn/source`) it still
 * runs from dist/, because Node cannot resolve the sources' `.js` imports.
 */
function workerUrl(): URL {
  return compiledUrl('read-worker.js');
}

/** The worker and the reads in flight; openSqliteReader puts StorageReads in front. */
class ReaderWorker {
  readonly #path: string;
  readonly #busyTimeoutMs: number | undefined;
  readonly #models: string | undefined;
  readonly #calls = new Map<number, Call>();
  #nextId = 1;
  #worker: Promise<Worker> | undefined;
  /** The thread behind #worker, from its start (it may still be starting). */
  #thread: Worker | undefined;
  #closed = false;

  constructor(path: string, busyTimeoutMs: number | undefined, models: string | undefined) {
    this.#path = path;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#models = models;
  }

  model<T>(name: string, ...args: unknown[]): Promise<T> {
    return this.#send({ model: name, args }) as Promise<T>;
  }

  /** One read of StorageReads, run by the worker. */
  call(method: (typeof READ_METHODS)[number], args: unknown[]): Promise<unknown> {
    return this.#send({ method, args });
  }

  async #send(request: DistributiveOmit<ReadRequest, 'id'>): Promise<unknown> {
    if (this.#closed) throw new StorageError('closed', 'the storage reader is closed');
    this.#worker ??= this.#start();
    const worker = await this.#worker;
    // Closed while it started: a message to a stopped thread would never be answered.
    if (this.#closed) throw new StorageError('closed', 'the storage reader is closed');
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      worker.ref(); // a read in flight keeps the process alive, an idle worker does not
      worker.postMessage({ ...request, id } as ReadRequest);
    });
  }

  #start(): Promise<Worker> {
    const data: ReadWorkerData = {
      path: this.#path,
      ...(this.#busyTimeoutMs !== undefined ? { busyTimeoutMs: this.#busyTimeoutMs } : {}),
      ...(this.#models !== undefined ? { models: this.#models } : {}),
    };
    const worker = new Worker(workerUrl(), { workerData: data, execArgv: compiledExecArgv() });
    this.#thread = worker;
    const started = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (reply: ReadReply) => {
        if ('ready' in reply) {
          if (this.#calls.size === 0) worker.unref();
          resolve(worker);
          return;
        }
        if ('failed' in reply) {
          reject(errorOf(reply.failed));
          void worker.terminate();
          return;
        }
        const call = this.#calls.get(reply.id);
        if (!call) return;
        this.#calls.delete(reply.id);
        if (this.#calls.size === 0) worker.unref();
        if ('error' in reply) call.reject(errorOf(reply.error));
        else call.resolve(reply.value);
      });
      worker.on('error', () => {}); // reported through 'exit'
      worker.once('exit', (code) => {
        const gone = this.#closed
          ? new StorageError('closed', 'the storage reader is closed')
          : new StorageError('io', `the storage reader's worker stopped (exit ${code})`);
        reject(gone);
        for (const call of this.#calls.values()) call.reject(gone);
        this.#calls.clear();
        if (this.#worker === started) this.#worker = undefined;
        if (this.#thread === worker) this.#thread = undefined;
      });
    });
    started.catch(() => {
      if (this.#worker === started) this.#worker = undefined;
    });
    return started;
  }

  /**
   * Stops the worker; reads in flight reject. A query already running in SQLite finishes
   * first (it cannot be interrupted), so this waits for it at most `graceMs`. A worker
   * still starting is stopped as it is (on a loaded machine a start takes seconds).
   */
  async close(graceMs = 1000): Promise<void> {
    this.#closed = true;
    const worker = this.#thread;
    this.#worker = undefined;
    this.#thread = undefined;
    if (!worker) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      worker.terminate(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }
}

function errorOf(error: { message: string; code?: string }): Error {
  return error.code !== undefined
    ? new StorageError(error.code as StorageErrorCode, error.message)
    : new Error(error.message);
}
