// One collector for the reads benchmark, in its own process: the viewer and the list
// routes read either on the event loop (`loop`: the storage's own connection, as before
// the reader thread) or from openSqliteReader's worker thread (`thread`, as the daemon
// does). Opens the prepared database given as argv[3]; prints its port.
import { dirname } from 'node:path';
import { openSqliteReader, openSqliteStorage } from '@kiro-learn/storage';
import { createCollector, normalizeSettings } from 'kiro-learn';
import { viewerApp } from '../dist/viewer/index.js';

const mode = process.argv[2];
const path = process.argv[3] ?? '';
const storage = await openSqliteStorage({ path });
const reads = mode === 'thread' ? openSqliteReader({ path }) : storage;
const collector = createCollector({
  storage,
  reads,
  settings: normalizeSettings({ port: 0 }, dirname(path)),
  ui: viewerApp({ storage: reads, version: 'bench', startedAt: Date.now(), extractor: () => '-' }),
});
const { port } = await collector.listen();
process.once('SIGTERM', () => {
  void collector.close().then(() => process.exit(0));
});
process.stdout.write(`${port}\n`);
