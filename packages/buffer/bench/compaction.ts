// Compaction of a 20 MB backlog (a synthetic long session) with the scripted ACP test agent
// replying instantly, as summarizer and as extractor: passes, time, peak RSS, prompt
// tokens before/after, beside a bare `node -e ''` start-up measured in the same run.
// Prints figures, asserts nothing. Run: pnpm --filter @kiro-learn/buffer bench (after build).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuffer, type ExtractionRun } from '@kiro-learn/buffer';
import { createAcpExtractor } from '@kiro-learn/extractor';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { openSqliteStorage } from '@kiro-learn/storage';
import { longSession } from '../test/session.ts';

const MB = Number(process.env.BENCH_MB ?? 20);
const NS = '/actor/bench/project/backlog/';

function stats(samples: number[], unit = 'ms'): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return `median ${at(0.5).toFixed(1)} ${unit}, p99 ${at(0.99).toFixed(1)} ${unit} (n=${samples.length})`;
}

const baseline: number[] = [];
for (let i = 0; i < 20; i++) {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  baseline.push(performance.now() - started);
}

const dir = mkdtempSync(join(tmpdir(), 'kl-bench-compaction-'));
const storage = await openSqliteStorage({ path: join(dir, 'bench.db') });
let bytes = 0;
let events = 0;
for (const event of longSession(NS, MB * 1024 * 1024)) {
  await storage.putEvent(event, { pending: true });
  bytes += JSON.stringify(event).length;
  events++;
}
const agent = createAcpExtractor({ command: testAgentCommand('instant') });
const runs: ExtractionRun[] = [];
const buffer = createBuffer({
  storage,
  extract: (batch) => agent.extract(batch),
  summarize: agent.summarize!,
  options: { idleMs: 600_000, maxBatchBytes: 2 * 1024 * 1024, maxBatchEvents: 5000 },
  compaction: { maxPromptTokens: 64_000 },
});
buffer.onExtraction((run) => runs.push(run));
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
const started = performance.now();
await buffer.extractNow(NS);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
await buffer.drain();
const left = (await storage.listPending(NS)).length;
await storage.close();
rmSync(dir, { recursive: true, force: true });

const before = runs.reduce((t, run) => t + (run.compaction?.tokensBefore ?? 0), 0);
const after = runs.reduce((t, run) => t + (run.compaction?.tokensAfter ?? 0), 0);
const passes = runs.reduce((t, run) => t + (run.compaction?.passes ?? 0), 0);
const perBatch = runs.map((run) => run.durationMs);
console.log(`baseline   node -e '' start-up:             ${stats(baseline)}`);
console.log(
  `backlog    ${(bytes / 1024 / 1024).toFixed(1)} MB, ${events} events; ${runs.length} extraction passes, ${passes} summarizer passes, ${left} left pending`,
);
console.log(`time       ${seconds.toFixed(2)} s in all; per extraction pass ${stats(perBatch)}`);
console.log(`memory     peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`);
console.log(
  `tokens     prompt before ${before}, after ${after} (${((100 * after) / Math.max(1, before)).toFixed(1)} %); largest compacted prompt ${Math.max(...runs.map((run) => run.compaction?.tokensAfter ?? 0))} of 64000`,
);
