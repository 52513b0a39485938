// The collector for the retrieval benchmarks, in its own process: over an existing data
// dir, with semantic search on (the real model, loaded in the background) or off, and its
// start-up warm-up as the daemon runs it (`cold`: without). Prints its port once the model
// is loaded (or at once when off), and on SIGTERM the CPU microseconds used since SIGUSR2.
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { createCollector, createSemantic, normalizeSettings, silentLogger } from 'kiro-learn';

const [home, mode, warmth] = process.argv.slice(2) as [
  string,
  'semantic' | 'lexical',
  'warm' | 'cold' | undefined,
];
const settings = normalizeSettings({ port: 0, semantic: { enabled: mode === 'semantic' } }, home);
// BENCH_IMPACT_MIN_POSTINGS=Infinity: every lexical search scored in FTS5 (the path before
// the impact-ordered table), for the same-run comparison.
const impact = process.env['BENCH_IMPACT_MIN_POSTINGS'];
const storage = await openSqliteStorage({
  path: join(home, 'kiro-learn.db'),
  ...(impact ? { impactMinPostings: Number(impact) } : {}),
});
const semantic = createSemantic(storage, settings, silentLogger);
const collector = createCollector({ storage, settings, semantic });
const { port } = await collector.listen();
if (warmth !== 'cold') void collector.warmUp();
while ((await semantic.status()).state === 'loading') await new Promise((r) => setTimeout(r, 50));
// SIGUSR2 marks the end of the warm-up; SIGTERM prints the CPU microseconds (all threads)
// used since, then exits.
let mark = process.cpuUsage();
process.on('SIGUSR2', () => {
  mark = process.cpuUsage();
});
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage(mark);
  void collector
    .close()
    .then(() => process.stdout.write(`${user + system}\n`, () => process.exit(0)));
});
process.stdout.write(`${port}\n`);
