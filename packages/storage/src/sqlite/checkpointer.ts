import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WRITES = 0;
const STOP = 1;

// The worker's code (CommonJS: an eval'd worker is a script). It sleeps until the writer
// has committed, lets commits gather for `intervalMs`, then copies the WAL into the
// database with a PASSIVE checkpoint, which never blocks the writer. It sleeps only while
// the WRITES counter still equals what it last saw, and close() bumps that counter: a
// close that lands while the worker is copying pages (and so not waiting) is still seen.
const SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const flags = new Int32Array(workerData.flags);
const db = new Database(workerData.path, { fileMustExist: true });
let seen = 0;
for (;;) {
  Atomics.wait(flags, ${WRITES}, seen);
  if (Atomics.load(flags, ${STOP})) break;
  Atomics.wait(flags, ${STOP}, 0, workerData.intervalMs);
  if (Atomics.load(flags, ${STOP})) break;
  seen = Atomics.load(flags, ${WRITES});
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or failing: the writer's own autocheckpoint is the fallback
  }
}
db.close();
`;

/**
 * Checkpoints the WAL from a worker thread with its own connection. SQLite otherwise
 * checkpoints inside whichever commit crosses `wal_autocheckpoint`: that request then
 * waits for thousands of page copies and two fsyncs, and every commit pays for them on
 * average (about a third of a lone event's commit). Commits stay exactly as durable:
 * checkpointing only moves already-committed pages from the WAL into the database file.
 */
export class Checkpointer {
  readonly #flags = new Int32Array(new SharedArrayBuffer(8));
  readonly #path: string;
  readonly #intervalMs: number;
  readonly #onExit: () => void;
  #worker: Worker | undefined;

  /** `onExit` runs if the worker ever stops by itself (the writer then checkpoints alone). */
  constructor(path: string, onExit: () => void, intervalMs = 200) {
    this.#path = path;
    this.#onExit = onExit;
    this.#intervalMs = intervalMs;
  }

  /** Notes a commit; the worker starts with the first, so read-only opens never pay for it. */
  committed(): void {
    if (Atomics.load(this.#flags, STOP)) return;
    this.#worker ??= this.#start();
    Atomics.add(this.#flags, WRITES, 1);
    Atomics.notify(this.#flags, WRITES);
  }

  #start(): Worker {
    const worker = new Worker(SOURCE, {
      eval: true,
      workerData: {
        path: this.#path,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        flags: this.#flags.buffer,
        intervalMs: this.#intervalMs,
      },
    });
    worker.unref();
    worker.on('error', () => {}); // reported through 'exit'
    worker.once('exit', () => {
      if (!Atomics.load(this.#flags, STOP)) this.#onExit();
    });
    return worker;
  }

  /**
   * Stops the worker and closes its connection; later commits start none. A worker still
   * copying pages after `graceMs` is terminated (its copy is only an optimisation).
   */
  async close(graceMs = 5000): Promise<void> {
    Atomics.store(this.#flags, STOP, 1);
    // Changing the counter is what wakes the worker: a notify alone is lost when it comes
    // while the worker is busy checkpointing rather than waiting.
    Atomics.add(this.#flags, WRITES, 1);
    Atomics.notify(this.#flags, WRITES);
    Atomics.notify(this.#flags, STOP);
    const worker = this.#worker;
    if (!worker || worker.threadId === -1) return;
    worker.ref(); // an unref'd worker's exit would not keep the process alive to see it
    const exited = once(worker, 'exit');
    const timer = setTimeout(() => void worker.terminate(), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
