import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryRecord } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { defaultBundleDir } from '@kiro-learn/shims';
import {
  FIRST_SESSION,
  NEXT_PROMPT,
  NEXT_SPAWN,
  NEXT_STOP,
  type RecordedHook,
} from '../demo/session.js';
import { api, cliAddress, probe, sleep } from '../lifecycle/client.js';
import { line, parseCommandArgs } from './args.js';
import { start } from './start.js';
import type { Command, CommandIO } from './types.js';

const EXTRACTION_WAIT_MS = 90_000;

export const demo: Command = {
  name: 'demo',
  summary: 'replay a recorded session through the real pipeline and show what memory does',
  usage: `kiro-learn demo

Replays a recorded Kiro CLI session (a failing Stripe webhook, found and fixed) through the
real hook processes into the collector, starting it if needed, in a demo project of its own
(<data dir>/demo/payments-api; its earlier demo memories are cleared first). Prints what was
captured, what was extracted, and what the agent's next session and prompt receive.`,
  async run(args, io) {
    parseCommandArgs('demo', args, {});
    const address = cliAddress(io.env);
    const say = (text = '') => line(io.stdout, text);
    if (!(await probe(address)).ok) {
      say('The collector is not running; starting it.');
      const code = await start.run([], io);
      if (code !== 0) return code;
    }
    const project = join(address.home, 'demo', 'payments-api');
    mkdirSync(project, { recursive: true, mode: 0o700 });
    writeFileSync(join(project, 'package.json'), '{ "name": "payments-api", "private": true }\n');
    const { namespace } = projectIdentity(project, { env: io.env });
    await clearProject(address, namespace);
    const before = await lastExtractionId(address, namespace);

    say(`\n1. Captured: a recorded session in ${project}`);
    say(`   (project ${namespace})`);
    for (const hook of FIRST_SESSION) {
      const output = await runHook(hook, project, io);
      say(`   ✓ ${hook.label}${output ? ` → the agent is told:\n${indent(output, 6)}` : ''}`);
    }

    say('\n2. Extracted: the turn ended, so its events are distilled into memory records now');
    const run = await waitForExtraction(address, namespace, before);
    if (!run) {
      say(
        `   No extraction finished within ${EXTRACTION_WAIT_MS / 1000} s; see kiro-learn status and kiro-learn logs.`,
      );
      return 1;
    }
    if (run.status !== 'ok') {
      say(
        `   The extraction failed (${run.extractor}): ${run.error ?? 'no reason given'}. See kiro-learn doctor.`,
      );
      return 1;
    }
    const records = await api<{ items: MemoryRecord[] }>(
      address,
      `/v1/memories?namespace=${encodeURIComponent(namespace)}&limit=20`,
    );
    say(
      `   extractor: ${run.extractor}, ${run.batchSize} events → ${records.items.length} records in ${Math.round(run.durationMs)} ms`,
    );
    for (const record of records.items.slice().reverse()) {
      say(`   • [${record.observation_type}] ${record.title}`);
    }

    say(`\n3. Retrieved: ${NEXT_SPAWN.label}`);
    const overview = await runHook(NEXT_SPAWN, project, io);
    if (overview)
      say(`   The session-start hook gives the agent an overview:\n\n${indent(overview, 4)}`);
    say(`\n   ${NEXT_PROMPT.label}: "${String(NEXT_PROMPT.payload['prompt'])}"`);
    const context = await runHook(NEXT_PROMPT, project, io);
    if (context)
      say(`   The prompt hook adds this to the agent's context:\n\n${indent(context, 4)}`);
    else if (overview)
      say(
        '   The prompt hook adds nothing more: the overview already holds what memory has on it.',
      );
    else say('   Nothing was injected (see kiro-learn doctor).');
    // End that turn too, so nothing of the demo is left pending for the next run.
    const lastRun = await lastExtractionId(address, namespace);
    await runHook(NEXT_STOP, project, io);
    await waitForExtraction(address, namespace, lastRun);

    say(`\n4. See it all in the viewer: ${address.baseUrl}/ui/`);
    say(
      `   Search it as the agent would: kiro-learn search "stripe signature" --project ${project}`,
    );
    say('   Connect your own project: cd <your project> && kiro-learn init');
    return 0;
  },
};

/**
 * Runs the Kiro CLI hook bundle as the agent would: payload on stdin, context on stdout.
 * Asynchronously: a blocked event loop cannot see the collector close an idle keep-alive
 * socket, and the next request on that socket fails (`fetch failed`) on a busy machine.
 */
function runHook(hook: RecordedHook, cwd: string, io: CommandIO): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(defaultBundleDir(), 'kiro.cjs')], {
      cwd,
      env: io.env,
      timeout: 10_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', () => resolve(''));
    child.once('close', () => {
      if (stderr) io.stderr.write(stderr);
      resolve(stdout.trim());
    });
    child.stdin.end(JSON.stringify({ ...hook.payload, cwd }));
  });
}

async function clearProject(
  address: ReturnType<typeof cliAddress>,
  namespace: string,
): Promise<void> {
  const ns = encodeURIComponent(namespace);
  for (;;) {
    const page = await api<{ items: MemoryRecord[] }>(
      address,
      `/v1/memories?namespace=${ns}&limit=100`,
    );
    if (page.items.length === 0) return;
    for (const record of page.items) {
      await fetch(`${address.baseUrl}/v1/memories/${record.record_id}`, {
        method: 'DELETE',
        headers: address.token ? { Authorization: `Bearer ${address.token}` } : {},
      });
    }
  }
}

interface ExtractionEntry {
  id: number;
  status: string;
  extractor: string;
  batchSize: number;
  durationMs: number;
  error?: string;
}

async function lastExtractionId(
  address: ReturnType<typeof cliAddress>,
  namespace: string,
): Promise<number> {
  const { items } = await api<{ items: ExtractionEntry[] }>(
    address,
    `/v1/extractions?namespace=${encodeURIComponent(namespace)}&limit=1`,
  );
  return items[0]?.id ?? 0;
}

async function waitForExtraction(
  address: ReturnType<typeof cliAddress>,
  namespace: string,
  afterId: number,
): Promise<ExtractionEntry | undefined> {
  const deadline = Date.now() + EXTRACTION_WAIT_MS;
  while (Date.now() < deadline) {
    const { items } = await api<{ items: ExtractionEntry[] }>(
      address,
      `/v1/extractions?namespace=${encodeURIComponent(namespace)}&after_id=${afterId}&limit=10`,
    );
    const done = items.find((entry) => entry.status !== 'skipped') ?? items[0];
    if (done) return done;
    await sleep(200);
  }
  return undefined;
}

const indent = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((l) => (l ? ' '.repeat(spaces) + l : l))
    .join('\n');
