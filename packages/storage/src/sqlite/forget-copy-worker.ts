// The worker thread of forgetInCopy: one rewrite, then it ends.
import { parentPort, workerData } from 'node:worker_threads';
import { type CopyForgetRequest, forgetInCopySync } from './forget-copy.js';

const port = parentPort;
if (!port) throw new Error('forget-copy-worker.js runs as a worker thread (forgetInCopy)');
const { path, request } = workerData as { path: string; request: CopyForgetRequest };
try {
  port.postMessage({ value: forgetInCopySync(path, request) });
} catch (error) {
  port.postMessage({ error: { message: error instanceof Error ? error.message : String(error) } });
}
