// The whole extraction path per batch, from the buffer: read the pending batch, spawn the
// scripted test agent (replying instantly), ACP handshake, framing, parsing, then store
// the records and remove the pending entries in one transaction. Beside it, in the same
// run: a bare `node -e ''` start-up, and the same path with the built-in extractor (no
// process). Prints figures, asserts nothing. Run: pnpm --filter @kiro-learn/buffer bench.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuffer, type ExtractFn } from '@kiro-learn/buffer';
import { createAcpExtractor, createBuiltinExtractor } from '@kiro-learn/extractor';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { type Event, newEventId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const NS = '/actor/bench/project/demo/';

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return `median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms (n=${samples.length})`;
}

function turn(): Event[] {
  const make = (kind: Event['kind'], body: Event['body']): Event => ({
    event_id: newEventId(),
    session_id: 'bench',
    actor_id: 'bench',
    namespace: NS,
    schema_version: 1,
    kind,
    body,
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1', client_id: 'bench' },
  });
  const bash = (ok: boolean) =>
    make('tool_use', {
      type: 'json',
      data: {
        tool_name: 'execute_bash',
        tool_input: { command: 'pnpm vitest run' },
        tool_response: {
          success: ok,
          result: [
            {
              exit_status: ok ? '0' : '1',
              stdout: ` Tests  ${ok ? '' : '1 failed | '}11 passed (12)`,
            },
          ],
        },
      },
    });
  return [
    make('prompt', { type: 'text', content: 'Fix the failing webhook test' }),
    make('tool_use', {
      type: 'json',
      data: {
        tool_name: 'fs_read',
        tool_input: { path: 'src/a.ts' },
        tool_response: { success: true, result: ['x'.repeat(2000)] },
      },
    }),
    bash(false),
    make('tool_use', {
      type: 'json',
      data: {
        tool_name: 'fs_write',
        tool_input: { path: 'src/a.ts', old_str: 'a', new_str: 'b' },
        tool_response: { success: true },
      },
    }),
    bash(true),
    make('session_summary', { type: 'text', content: '' }),
  ];
}

async function measure(extract: ExtractFn): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kl-bench-'));
  const storage = await openSqliteStorage({ path: join(dir, 'bench.db') });
  const buffer = createBuffer({ storage, extract, options: { idleMs: 600_000 } });
  const samples: number[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      // Stored without notify(): only extractNow starts the extraction being timed.
      for (const event of turn()) await storage.putEvent(event, { pending: true });
      const started = performance.now();
      const run = await buffer.extractNow(NS);
      if (i > 0) samples.push(performance.now() - started); // the first run warms caches
      if (run.status !== 'ok') throw new Error(`extraction failed: ${run.error}`);
    }
  } finally {
    await buffer.drain();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return samples;
}

const baseline: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '']);
  baseline.push(performance.now() - started);
}
const acp = createAcpExtractor({ command: testAgentCommand('instant') });
const builtin = createBuiltinExtractor();
const viaAcp = await measure((batch) => acp.extract(batch));
const viaBuiltin = await measure((batch) => builtin.extract(batch));

console.log(`baseline  node -e '' start-up:                       ${stats(baseline)}`);
console.log(
  `ACP       batch of 6 events, read → agent → commit:   ${stats(viaAcp)}  target ≤ 150 ms`,
);
console.log(`built-in  batch of 6 events, read → rules → commit:   ${stats(viaBuiltin)}`);
