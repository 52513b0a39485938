// The worker thread of openSqliteReader: a read-only connection of its own, answering one
// read at a time. SQLite's WAL lets it read while the collector's connection writes.
import { parentPort, workerData } from 'node:worker_threads';
import { StorageError } from '../errors.js';
import { READ_METHODS } from '../reads.js';
import { openSqliteStorage } from './open.js';

/** What the reader sends: a method of StorageReads (or a read model) and its arguments. */
export type ReadRequest =
  | { id: number; method: (typeof READ_METHODS)[number]; args: unknown[] }
  | { id: number; model: string; args: unknown[] };

/** What the worker answers: the value, or the error (a StorageError keeps its code). */
export type ReadReply =
  | { id: number; value: unknown }
  | { id: number; error: { message: string; code?: string } }
  | { ready: true }
  | { failed: { message: string; code?: string } };

export interface ReadWorkerData {
  path: string;
  busyTimeoutMs?: number;
  /** URL of a module whose exports are read models (openSqliteReader's `models`). */
  models?: string;
}

const port = parentPort;
if (!port) throw new Error('read-worker.js runs as a worker thread (openSqliteReader)');
const data = workerData as ReadWorkerData;
const allowed = new Set<string>(READ_METHODS);

const errorOf = (error: unknown) => ({
  message: error instanceof Error ? error.message : String(error),
  ...(error instanceof StorageError ? { code: error.code } : {}),
});

try {
  const storage = await openSqliteStorage({
    path: data.path,
    readOnly: true,
    ...(data.busyTimeoutMs !== undefined ? { busyTimeoutMs: data.busyTimeoutMs } : {}),
  });
  // A models module that fails to load fails only the models, never the plain reads.
  let models: Record<string, unknown> = {};
  let modelsError: unknown;
  if (data.models !== undefined) {
    try {
      models = (await import(data.models)) as Record<string, unknown>;
    } catch (error) {
      modelsError = error;
    }
  }
  port.on('message', async (request: ReadRequest) => {
    let reply: ReadReply;
    try {
      let value: unknown;
      if ('model' in request) {
        if (modelsError !== undefined) throw modelsError;
        const model = models[request.model];
        if (typeof model !== 'function') throw new Error(`no read model ${request.model}`);
        value = await (model as (...args: unknown[]) => Promise<unknown>)(storage, ...request.args);
      } else {
        if (!allowed.has(request.method)) throw new Error(`not a read: ${request.method}`);
        const method = storage[request.method] as (...args: unknown[]) => Promise<unknown>;
        value = await method.apply(storage, request.args);
      }
      reply = { id: request.id, value };
    } catch (error) {
      reply = { id: request.id, error: errorOf(error) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies ReadReply);
} catch (error) {
  port.postMessage({ failed: errorOf(error) } satisfies ReadReply);
}
