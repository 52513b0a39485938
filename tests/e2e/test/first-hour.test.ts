import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import type { Event, MemoryRecord } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extraction,
  fixture,
  get,
  hook,
  MCP,
  makeWorld,
  startCollector,
  type World,
} from './harness.js';

// The product as a newcomer meets it, through real processes only: the agents' hook
// payloads go through the real shim bundles into a real collector, which extracts memory
// (built-in rules, or an ACP agent: our scripted one) and answers the next prompt; then the
// MCP server the agent would start finds the memory and recovers the raw tool output.

const passingRun = (project: string) => {
  const run = fixture('kiro-cli', 'postToolUse-execute_bash', project);
  run['tool_response'] = {
    success: true,
    result: [{ exit_status: '0', stdout: ' Tests  12 passed (12)', stderr: '' }],
  };
  return run;
};

const acp = testAgentCommand('records').join(' ');

const cases: Array<{ extractor: string; env: Record<string, string>; fix: RegExp }> = [
  { extractor: 'builtin', env: { KIRO_LEARN_EXTRACTOR: 'builtin' }, fix: /express\.raw\(/ },
  {
    extractor: 'acp',
    env: { KIRO_LEARN_EXTRACTOR: 'acp', KIRO_LEARN_COMPRESSOR_COMMAND: acp },
    fix: /Test agent summary: The Stripe webhook handler returns 400/,
  },
];

describe.each(cases)('first hour with the $extractor extractor', ({ extractor, env, fix }) => {
  let world: World;
  let namespace: string;

  beforeAll(async () => {
    world = await makeWorld(env);
    namespace = projectIdentity(world.project, { env: world.env }).namespace;
    startCollector(world);
  });
  afterAll(() => world?.cleanup());

  it('session 1 (Kiro CLI): a turn is captured and distilled into memory', async () => {
    const p = world.project;
    const turn = [
      fixture('kiro-cli', 'agentSpawn', p),
      fixture('kiro-cli', 'userPromptSubmit', p),
      fixture('kiro-cli', 'postToolUse-fs_read', p),
      fixture('kiro-cli', 'postToolUse-execute_bash', p),
      fixture('kiro-cli', 'postToolUse-fs_write', p),
      passingRun(p),
      fixture('kiro-cli', 'stop', p),
    ];
    for (const payload of turn) {
      const result = hook(world, 'kiro.cjs', payload);
      expect(result).toMatchObject({ code: 0, stderr: '' });
    }
    const run = await extraction(world, namespace);
    expect(run).toMatchObject({ status: 'ok', extractor });
    expect(run.records).toBeGreaterThan(0);
    const events = await get<{ items: Event[] }>(
      world,
      `/v1/events?namespace=${encodeURIComponent(namespace)}`,
    );
    expect(events.items.map((e) => e.kind).sort()).toEqual([
      'note',
      'prompt',
      'session_summary',
      'tool_use',
      'tool_use',
      'tool_use',
      'tool_use',
    ]);
  });

  it('session 2 (Kiro CLI): the memory about the fix arrives as it starts, once, and only context', () => {
    // Kiro CLI sends no session id: a new session starts with agentSpawn, whose context
    // carries the project's memory; the prompt that follows does not repeat what the agent
    // was just shown.
    const spawned = hook(world, 'kiro.cjs', fixture('kiro-cli', 'agentSpawn', world.project));
    expect(spawned).toMatchObject({ code: 0, stderr: '' });
    expect(spawned.stdout).toMatch(/^## Prior observations from kiro-learn\n\n### /);
    expect(spawned.stdout).toMatch(fix);
    const prompt = {
      hook_event_name: 'userPromptSubmit',
      cwd: world.project,
      prompt: 'The stripe webhook returns 400 again after the deploy. What fixed it last time?',
    };
    const result = hook(world, 'kiro.cjs', prompt);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).not.toMatch(fix);
  });

  it('Claude Code in the same repository shares the same project memory', async () => {
    const p = world.project;
    const transcript = join(world.home, 'transcript.jsonl');
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Users now have UUID primary keys (migration 0007).' }] } })}\n`,
    );
    const session = (name: string) => ({
      ...fixture('claude-code', name, p),
      transcript_path: transcript,
    });
    const lastRun = await extraction(world, namespace);
    // Claude Code adds SessionStart output to the context: the Kiro CLI turn's memory is there.
    const started = hook(world, 'claude-code.cjs', session('SessionStart'));
    expect(started).toMatchObject({ code: 0, stderr: '' });
    expect(started.stdout).toMatch(/^## Prior observations from kiro-learn\n/);
    expect(started.stdout).toMatch(fix);
    for (const name of ['UserPromptSubmit', 'PostToolUse', 'Stop']) {
      const ran = hook(world, 'claude-code.cjs', session(name));
      expect(ran).toMatchObject({ code: 0, stderr: '' });
      // Within the session, what its start injected is not injected again.
      if (name === 'UserPromptSubmit') expect(ran.stdout).not.toMatch(fix);
    }
    // Its Stop extracts that turn too; let it finish so later searches see settled memory.
    await extraction(world, namespace, lastRun.id);
    // A new session's prompt about the same problem gets it again.
    const ask = {
      ...session('UserPromptSubmit'),
      session_id: 'claude-session-2',
      prompt: 'why did the stripe webhook reject every event with a 400?',
    };
    const answer = hook(world, 'claude-code.cjs', ask);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(fix);
    const events = await get<{ items: Event[] }>(
      world,
      `/v1/events?namespace=${encodeURIComponent(namespace)}&limit=100`,
    );
    expect(new Set(events.items.map((e) => e.source.surface))).toEqual(
      new Set(['kiro-cli', 'claude-code']),
    );
  });

  it('the MCP server finds the memory and recovers the raw tool output byte for byte', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP],
      cwd: world.project,
      env: world.env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const found = await client.callTool({
        name: 'search_memory',
        arguments: { query: 'stripe webhook signature' },
      });
      expect(found.isError).toBeFalsy();
      const text = (found.content as Array<{ text: string }>).map((c) => c.text).join('\n');
      const records = await get<MemoryRecord[]>(
        world,
        `/v1/memories/search?namespace=${encodeURIComponent(namespace)}&query=stripe+webhook+signature`,
      );
      expect(records.length).toBeGreaterThan(0);
      expect(text).toContain(records[0]!.record_id);

      const tools = await get<{ items: Event[] }>(
        world,
        `/v1/events?namespace=${encodeURIComponent(namespace)}&kind=tool_use&limit=100`,
      );
      const failing = tools.items.find((e) =>
        JSON.stringify(e.body).includes('StripeSignatureVerificationError'),
      )!;
      const raw = await client.callTool({
        name: 'get_event',
        arguments: { event_id: failing.event_id },
      });
      expect(raw.isError).toBeFalsy();
      const stored = await (await fetch(`${world.baseUrl}/v1/events/${failing.event_id}`)).text();
      expect((raw.content as Array<{ text: string }>)[0]!.text).toBe(stored);
      expect(stored).toContain('No signatures found matching the expected signature');
    } finally {
      await client.close();
    }
  });
});
