// Extraction overhead per batch with the scripted test agent replying instantly (spawn,
// ACP handshake, framing, parsing), beside two baselines measured in the same run: a bare
// `node -e ''` start-up, and Node importing the ACP SDK (the test agent's own floor);
// and the built-in extractor's throughput. Prints figures, asserts nothing.
// Run: pnpm --filter @kiro-learn/extractor bench (after build).
import { spawnSync } from 'node:child_process';
import { createAcpExtractor, createBuiltinExtractor } from '@kiro-learn/extractor';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { fixtureSession, NAMESPACE } from '../test/fixtures/session.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return `median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms (n=${samples.length})`;
}

const baseline: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  baseline.push(performance.now() - started);
}

// The test agent's own floor: Node plus loading the ACP SDK (zod schemas), no protocol.
const sdkLoad: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  spawnSync(process.execPath, [
    '--input-type=module',
    '-e',
    "await import('@agentclientprotocol/sdk')",
  ]);
  sdkLoad.push(performance.now() - started);
}

const acp = createAcpExtractor({ command: testAgentCommand('instant') });
const batch = { namespace: NAMESPACE, events: fixtureSession() };
await acp.extract(batch); // warm the file cache
const perBatch: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const result = await acp.extract(batch);
  perBatch.push(performance.now() - started);
  if (result.records.length !== 2) throw new Error('the test agent should give 2 records');
}

const builtin = createBuiltinExtractor();
const turns = Array.from({ length: 500 }, () => fixtureSession());
const rates: number[] = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  let events = 0;
  for (const events_ of turns) {
    await builtin.extract({ namespace: NAMESPACE, events: events_ });
    events += events_.length;
  }
  rates.push(events / ((performance.now() - started) / 1000));
}
rates.sort((a, b) => a - b);

console.log(`baseline  node -e '' start-up:                 ${stats(baseline)}`);
console.log(`baseline  node + ACP SDK import (agent floor):  ${stats(sdkLoad)}`);
console.log(`ACP       extraction per batch (7 events):     ${stats(perBatch)}  target ≤ 150 ms`);
console.log(
  `built-in  throughput (500 turns × 7 events):   median ${Math.round(rates[2]!)} events/s (5 rounds)`,
);
