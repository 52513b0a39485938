// Mounting the viewer on a collector, as the daemon does (apps/collector/src/daemon.ts).
import type { PendingBuffer } from '@kiro-learn/buffer';
import { openSqliteStorage } from '@kiro-learn/storage';
import { Hono } from 'hono';
import { viewerApp } from '../../src/viewer/index.js';

declare const buffer: PendingBuffer;

const storage = await openSqliteStorage({ path: '/tmp/kiro-learn-example/kiro-learn.db' });
const app = new Hono();
app.route(
  '/ui',
  viewerApp({
    storage,
    version: '0.1.0',
    startedAt: Date.now(),
    extractor: () => 'built-in',
    breakerState: (namespace) => buffer.breakerState(namespace),
    compaction: (namespace) => buffer.compactionStatus(namespace),
    extractNow: async (namespace) => {
      await buffer.extractNow(namespace);
    },
  }),
);
// GET /ui/ serves the page, /ui/api/* its read models; the page also uses /v1/* and /v1/stream.
export default app;
