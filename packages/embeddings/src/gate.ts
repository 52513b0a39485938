/**
 * When the embedding worker may be stopped. Terminating a worker while it is inside the
 * onnxruntime addon (a session being created, run or released) aborts the whole process:
 * the addon throws a C++ exception once its environment is gone. While the worker runs
 * JavaScript (reading and quantising the weights, waiting for a message) terminating it is
 * safe. The worker and its owner share one word that says which, so a stop never waits
 * for more than the one addon call under way: a model still loading on a loaded machine
 * (many seconds) does not hold up the process that owns it.
 */
import type { Worker } from 'node:worker_threads';

/** The worker runs JavaScript: it may be terminated. */
const IN_JS = 0;
/** The worker is inside the addon: it may not be terminated. */
const IN_ADDON = 1;
/** The owner stopped the worker: it never enters the addon again. */
const STOPPED = 2;
/** Asked to stop while inside the addon: the worker ends itself once the call returns. */
const STOP_AFTER_CALL = 3;

/** The shared word (in the worker's workerData). */
export type Gate = Int32Array;

export function createGate(): Gate {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/**
 * Worker side: runs `call`, which enters the addon, unless the owner stopped the worker;
 * ends the worker when a stop was asked meanwhile. Without a gate, just runs it.
 */
export async function inAddon<T>(gate: Gate | undefined, call: () => Promise<T>): Promise<T> {
  if (!gate) return call();
  if (Atomics.compareExchange(gate, 0, IN_JS, IN_ADDON) !== IN_JS) endThisWorker();
  try {
    return await call();
  } finally {
    if (Atomics.compareExchange(gate, 0, IN_ADDON, IN_JS) !== IN_ADDON) endThisWorker();
  }
}

function endThisWorker(): never {
  // In a worker thread this ends the thread, not the process.
  process.exit(0);
}

/**
 * Owner side: stops the worker as soon as that is safe (at once while it runs JavaScript,
 * else when its addon call returns). Resolves once `exited` has.
 */
export async function stopWorker(worker: Worker, gate: Gate, exited: Promise<unknown>) {
  // An unref'd worker's exit would not keep the process alive to see it.
  worker.ref();
  for (;;) {
    const was = Atomics.compareExchange(gate, 0, IN_JS, STOPPED);
    if (was === IN_JS) {
      await worker.terminate();
      break;
    }
    if (was === IN_ADDON) {
      // It may have left the addon meanwhile: then look again.
      if (Atomics.compareExchange(gate, 0, IN_ADDON, STOP_AFTER_CALL) === IN_ADDON) break;
      continue;
    }
    break; // already stopped or stopping
  }
  await exited;
}
