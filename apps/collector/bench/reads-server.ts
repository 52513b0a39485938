// One collector for the reads benchmark, in its own process: the viewer and the list
// routes read either on the event loop (`loop`: the storage's own connection, as before
// the reader thread) or from openSqliteReader's worker thread (`thread`, as the daemon
// does). Opens the prepared database given as argv[3]; prints its port, and on SIGUSR2 the
// event loop's delay since the last SIGUSR2 (p99 and max, in ms) as one JSON line.
import { dirname } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSqliteReader, openSqliteStorage } from '@kiro-learn/storage';
import { createCollector, normalizeSettings } from 'kiro-learn';

// The compiled viewer (the bench measures what the daemon runs), typed from its source so
// that a type check does not need a build first.
const compiled = (file: string) => new URL(`../dist/viewer/${file}`, import.meta.url).href;
const { viewerApp } = (await import(
  compiled('index.js')
)) as typeof import('../src/viewer/index.ts');
const { readerModels, VIEWER_MODELS_URL } = (await import(
  compiled('models.js')
)) as typeof import('../src/viewer/models.ts');

const mode = process.argv[2];
const path = process.argv[3] ?? '';
const storage = await openSqliteStorage({ path });
const reader =
  mode === 'thread' ? openSqliteReader({ path, models: VIEWER_MODELS_URL }) : undefined;
const reads = reader ?? storage;
const collector = createCollector({
  storage,
  reads,
  settings: normalizeSettings({ port: 0 }, dirname(path)),
  ui: viewerApp({
    storage: reads,
    ...(reader ? { models: readerModels(reader) } : {}),
    version: 'bench',
    startedAt: Date.now(),
    extractor: () => '-',
  }),
});
const { port } = await collector.listen();
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
process.on('SIGUSR2', () => {
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.stdout.write(
    `${JSON.stringify({ p99: ms(delay.percentile(99)), max: ms(delay.max) })}\n`,
  );
  delay.reset();
});
process.once('SIGTERM', () => {
  void collector.close().then(() => process.exit(0));
});
process.stdout.write(`${port}\n`);
