// The collector for the first-retrieval benchmark, in a fresh process over an existing data
// dir: `warm` starts its warm-up as the daemon does (right after listening, not awaited),
// `cold` does not. Prints its port once listening.
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { createCollector, createSemantic, normalizeSettings, silentLogger } from 'kiro-learn';

const [home, mode, warmth] = process.argv.slice(2) as [
  string,
  'semantic' | 'lexical',
  'warm' | 'cold',
];
const settings = normalizeSettings({ port: 0, semantic: { enabled: mode === 'semantic' } }, home);
const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
const semantic = createSemantic(storage, settings, silentLogger);
const collector = createCollector({ storage, settings, semantic });
const { port } = await collector.listen();
if (warmth === 'warm') void collector.warmUp();
process.once('SIGTERM', () => void collector.close().then(() => process.exit(0)));
process.stdout.write(`${port}\n`);
