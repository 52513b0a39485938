// The worker thread of checkDatabaseOffThread: one check, then it ends.
import { parentPort, workerData } from 'node:worker_threads';
import { checkDatabase } from './integrity.js';

const port = parentPort;
if (!port) throw new Error('integrity-worker.js runs as a worker thread (checkDatabaseOffThread)');
const { path, maxProblems } = workerData as { path: string; maxProblems: number };
port.postMessage(checkDatabase(path, maxProblems));
