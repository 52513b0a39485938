import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, newRecordId } from '@kiro-learn/schema';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createAcpExtractor,
  type ExtractorError,
  reapStaleAgents,
  runAcpPrompt,
} from '../src/index.js';
import { recordAgent } from '../src/reap.js';
import { type TestAgentMode, testAgentCommand } from '../src/test-agent-command.js';
import { eventFrom, fixtureSession, NAMESPACE } from './fixtures/session.js';

const dir = mkdtempSync(join(tmpdir(), 'kl-acp-'));
const pidFile = join(dir, 'pids');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function extractor(mode: TestAgentMode, options: Parameters<typeof createAcpExtractor>[0] = {}) {
  return createAcpExtractor({
    command: testAgentCommand(mode),
    env: { ...process.env, KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile, ...options.env },
    ...options,
  });
}

const batch = () => ({ namespace: NAMESPACE, events: fixtureSession() });

async function failure(promise: Promise<unknown>): Promise<ExtractorError> {
  try {
    await promise;
  } catch (error) {
    return error as ExtractorError;
  }
  throw new Error('expected the extraction to fail');
}

/** Every agent process these tests started is gone from the process table (reaped, not a zombie). */
function agentsStarted(): number[] {
  return existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').map(Number) : [];
}
const alive = (pid: number) => existsSync(`/proc/${pid}`);

describe('ACP extractor against the scripted test agent', () => {
  it('stores the valid records, cites the events named, and drops the block with an unknown type', async () => {
    const input = batch();
    const result = await extractor('records').extract(input);
    expect(result.attempts).toBe(1);
    expect(result.records.map((record) => record.observation_type)).toEqual([
      'session_summary',
      'discovery',
    ]);
    const [summary, discovery] = result.records;
    expect(summary!.title).toBe(
      "Test agent summary: The Stripe webhook handler returns 400 on every event since yesterday's deploy. Can you find out why?",
    );
    expect(summary!.summary).toBe('The scripted test agent read 7 events & summarised them.');
    expect(summary!.source_event_ids).toEqual(input.events.map((event) => event.event_id));
    expect(discovery!.source_event_ids).toEqual([input.events[0]!.event_id]);
    expect(summary!.strategy).toBe('llm-summary');
  });

  it('stores the questions each record answers (doc2query), as the agent wrote them', async () => {
    const [summary] = (await extractor('records').extract(batch())).records;
    expect(summary!.questions).toEqual([
      'What did the scripted agent see in 7 events?',
      'Which session did the test agent summarise?',
    ]);
  });

  it('shows existing memories and takes the one a record supersedes, only from those shown', async () => {
    const memory = (title: string) => ({
      record_id: newRecordId(),
      namespace: NAMESPACE,
      strategy: 'llm-summary',
      title,
      summary: 'The webhook route parses JSON.',
      facts: [],
      concepts: [],
      files_touched: [],
      observation_type: 'decision' as const,
      source_event_ids: [newEventId()],
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const stale = memory('Webhook body parsing [replace me]');
    const kept = memory('Webhook secrets live in Vault');
    const result = await extractor('records').extract({ ...batch(), memories: [kept, stale] });
    const [summary] = result.records;
    expect(result.supersedes).toEqual({ [summary!.record_id]: [stale.record_id] });
    // Without the memory in the prompt, the same name is ignored.
    const state = join(dir, 'named-state');
    const script = join(dir, 'named.json');
    writeFileSync(
      script,
      JSON.stringify([
        `<memory_record type="decision"><title>Raw body on the webhook route</title><summary>express.raw() now.</summary><supersedes>${stale.record_id}</supersedes></memory_record>`,
      ]),
    );
    const unnamed = await extractor('script', {
      env: {
        ...process.env,
        KIRO_LEARN_TEST_AGENT_SCRIPT: script,
        KIRO_LEARN_TEST_AGENT_STATE: state,
      },
    }).extract({ ...batch(), memories: [kept] });
    expect(unnamed.records).toHaveLength(1);
    expect(unnamed.supersedes).toBeUndefined();
  });

  it('drops a record of a turn that only asked, whatever the model wrote', async () => {
    const state = join(dir, 'asked-state');
    const script = join(dir, 'asked.json');
    const events = [
      eventFrom('prompt', { type: 'text', content: 'which port does the API use?' }),
      eventFrom('session_summary', { type: 'text', content: '' }),
    ];
    writeFileSync(
      script,
      JSON.stringify([
        `<memory_record type="session_summary"><title>User asked which port</title><summary>The user asked which port the API uses.</summary><sources><event_id>${events[0]!.event_id}</event_id></sources></memory_record>`,
      ]),
    );
    const result = await extractor('script', {
      env: {
        ...process.env,
        KIRO_LEARN_TEST_AGENT_SCRIPT: script,
        KIRO_LEARN_TEST_AGENT_STATE: state,
      },
    }).extract({ namespace: NAMESPACE, events });
    expect(result.records).toEqual([]);
    expect(result.attempts).toBe(1);
  });

  it('returns no records for <skip/>', async () => {
    expect(await extractor('skip').extract(batch())).toEqual({
      extractor: 'acp',
      records: [],
      attempts: 1,
    });
  });

  it('retries garbage with a fresh session, three attempts, then fails', async () => {
    const before = agentsStarted().length;
    const error = await failure(extractor('garbage').extract(batch()));
    expect(error.code).toBe('garbage');
    expect(error.message).toMatch(/no usable reply after 3 attempts/);
    expect(agentsStarted().length - before).toBe(3);
  });

  it('succeeds on the second session when the first replied garbage', async () => {
    const state = join(dir, 'flaky-state');
    const result = await extractor('flaky', {
      env: { KIRO_LEARN_TEST_AGENT_STATE: state },
    }).extract(batch());
    expect(result.attempts).toBe(2);
    expect(result.records).toHaveLength(2);
  });

  it('reports a crash mid-turn with the agent stderr, without retrying', async () => {
    const before = agentsStarted().length;
    const error = await failure(extractor('crash').extract(batch()));
    expect(error.code).toBe('agent_exited');
    expect(error.message).toContain('code 70');
    expect(error.stderr).toContain('crashing mid-turn');
    expect(agentsStarted().length - before).toBe(1);
  });

  it('reports an agent that exits non-zero at start', async () => {
    const error = await failure(extractor('exit').extract(batch()));
    expect(error.code).toBe('agent_exited');
    expect(error.message).toContain('refusing to start');
  });

  it('reports a command that is not installed', async () => {
    const error = await failure(
      createAcpExtractor({ command: 'kiro-learn-no-such-agent acp' }).extract(batch()),
    );
    expect(error.code).toBe('spawn_failed');
    expect(error.message).toContain('kiro-learn-no-such-agent');
  });

  it('times out a hanging agent and a slow one', async () => {
    for (const mode of ['hang', 'slow'] as const) {
      const error = await failure(extractor(mode, { timeoutMs: 300 }).extract(batch()));
      expect(error.code).toBe('timeout');
    }
  });

  it('kills an agent that ignores SIGTERM', async () => {
    const before = agentsStarted().length;
    const error = await failure(
      runAcpPrompt({
        command: testAgentCommand('stubborn'),
        env: { ...process.env, KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile },
        prompt: 'hello',
        cwd: dir,
        // Long enough for the agent to be up and ignoring SIGTERM even on a loaded machine.
        timeoutMs: 3000,
        killGraceMs: 200,
      }),
    );
    expect(error.code).toBe('timeout');
    expect(error.stderr).toContain('ignoring SIGTERM');
    const [pid] = agentsStarted().slice(before);
    expect(alive(pid!)).toBe(false);
  });

  it('stops the agent at once when the caller aborts (shutdown), even one that ignores SIGTERM', async () => {
    const before = agentsStarted().length;
    const controller = new AbortController();
    const running = failure(
      runAcpPrompt({
        command: testAgentCommand('stubborn'),
        env: { ...process.env, KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile },
        prompt: 'hello',
        cwd: dir,
        timeoutMs: 60_000,
        killGraceMs: 200,
        signal: controller.signal,
      }),
    );
    while (agentsStarted().length === before) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const error = await running;
    expect(error.code).toBe('aborted');
    const [pid] = agentsStarted().slice(before);
    expect(alive(pid!)).toBe(false);
  });

  it('reaps an agent a killed process left behind, from its pid record', async () => {
    const pidDir = join(dir, 'agents');
    // A collector killed with -9 leaves its agent running in its own process group.
    const orphan = spawn(testAgentCommand('stubborn')[0]!, testAgentCommand('stubborn').slice(1), {
      detached: true,
      stdio: 'ignore',
    });
    orphan.unref();
    recordAgent(pidDir, orphan.pid!, process.execPath);
    expect(alive(orphan.pid!)).toBe(true);
    expect(reapStaleAgents(pidDir)).toEqual([orphan.pid]);
    await new Promise<void>((resolve) => orphan.once('exit', () => resolve()));
    expect(readdirSync(pidDir)).toEqual([]);
    // A record whose process is gone (or is another program now) is only forgotten.
    recordAgent(pidDir, orphan.pid!, process.execPath);
    expect(reapStaleAgents(pidDir)).toEqual([]);
  });

  it('splits a batch too large for one prompt and combines the records', async () => {
    const result = await extractor('instant', { maxPromptChars: 1500 }).extract(batch());
    expect(result.attempts).toBeGreaterThan(1);
    expect(result.records).toHaveLength(result.attempts * 2);
  });

  it('leaves no agent process behind', () => {
    const pids = agentsStarted();
    expect(pids.length).toBeGreaterThan(10);
    expect(pids.filter(alive)).toEqual([]);
  });
});
