import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extraction,
  fixture,
  get,
  hook,
  makeWorld,
  startCollector,
  type World,
} from './harness.js';

// A newer fact retires the older one, as a user meets it: Claude Code turns through the real
// hook processes into a real collector. With the built-in extractor, a later turn that changes
// what an earlier one set marks the earlier record superseded (no model, no word of change
// needed); the next prompt gets the current record first; undoing the link over HTTP makes the
// older record current again. With an ACP agent (our scripted one), the agent names the
// memory its record replaces and writes the questions the record answers.

async function send(world: World, method: string, path: string, body?: unknown) {
  const res = await fetch(world.baseUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** One Claude Code turn through the installed hook: a prompt, tool calls, the closing message. */
function turn(
  world: World,
  session: string,
  prompt: string,
  tools: Array<{ name: string; input: Record<string, unknown> }>,
  answer: string,
): string {
  const p = world.project;
  const base = (name: string) => ({ ...fixture('claude-code', name, p), session_id: session });
  const asked = hook(world, 'claude-code.cjs', { ...base('UserPromptSubmit'), prompt });
  expect(asked).toMatchObject({ code: 0, stderr: '' });
  for (const tool of tools) {
    const ran = hook(world, 'claude-code.cjs', {
      ...base('PostToolUse'),
      tool_name: tool.name,
      tool_input: tool.input,
      tool_response: { filePath: tool.input.file_path, success: true },
    });
    expect(ran).toMatchObject({ code: 0, stderr: '' });
  }
  const stopped = hook(world, 'claude-code.cjs', {
    ...base('Stop'),
    last_assistant_message: answer,
  });
  expect(stopped).toMatchObject({ code: 0, stderr: '' });
  return asked.stdout;
}

const records = async (world: World, namespace: string) =>
  (
    await get<{ items: MemoryRecord[] }>(
      world,
      `/v1/memories?namespace=${encodeURIComponent(namespace)}&limit=100`,
    )
  ).items;

describe('a newer fact retires the older one (built-in extractor, real hooks)', () => {
  let world: World;
  let namespace: string;
  let older: MemoryRecord;
  let newer: MemoryRecord;

  beforeAll(async () => {
    world = await makeWorld({ KIRO_LEARN_EXTRACTOR: 'builtin' });
    namespace = projectIdentity(world.project, { env: world.env }).namespace;
    startCollector(world);
  });
  afterAll(() => world?.cleanup());

  it('a later turn that changed the value an earlier turn set marks the earlier record superseded', async () => {
    const config = `${world.project}/src/payments/client.ts`;
    turn(
      world,
      'session-monday',
      'the payment client times out at peak, give it a 10 second timeout',
      [
        {
          name: 'Edit',
          input: { file_path: config, old_string: 'timeout: 5_000', new_string: 'timeout: 10_000' },
        },
      ],
      'The payment client waits 10 s for the provider now.',
    );
    const first = await extraction(world, namespace);
    expect(first).toMatchObject({ status: 'ok', extractor: 'builtin' });
    turn(
      world,
      'session-friday',
      'still failing during 3-D Secure checks, make the payment client wait longer',
      [
        {
          name: 'Edit',
          input: {
            file_path: config,
            old_string: 'timeout: 10_000',
            new_string: 'timeout: 30_000',
          },
        },
      ],
      'Done: 30 seconds.',
    );
    await extraction(world, namespace, first.id);
    const stored = await records(world, namespace);
    older = stored.find((r) => r.title.startsWith('the payment client times out'))!;
    newer = stored.find((r) => r.title.startsWith('still failing during'))!;
    expect(older.superseded_by).toBe(newer.record_id);
    expect(older.superseded_reason).toMatch(/^same file src\/payments\/client\.ts; /);
    expect(newer.superseded_by).toBeUndefined();
    // Kept, and linked both ways: the chain from either end.
    const chain = await get<{ current: string; records: MemoryRecord[] }>(
      world,
      `/v1/memories/${older.record_id}/chain`,
    );
    expect(chain.records.map((r) => r.record_id)).toEqual([older.record_id, newer.record_id]);
    expect(chain).toMatchObject({ current: newer.record_id });
    const current = (
      await get<{ items: MemoryRecord[] }>(
        world,
        `/v1/memories?namespace=${encodeURIComponent(namespace)}&current=true&limit=100`,
      )
    ).items.map((r) => r.record_id);
    expect(current).toContain(newer.record_id);
    expect(current).not.toContain(older.record_id);
  });

  it('the next session asking how things are now gets the current record first', () => {
    const context = turn(
      world,
      'session-next-week',
      'what timeout does the payment client use?',
      [],
      'It is 30 seconds.',
    );
    expect(context).toMatch(/^## Prior observations from kiro-learn\n/);
    const at = (title: string) => context.indexOf(title.slice(0, 40));
    expect(at(newer.title)).toBeGreaterThan(-1);
    // The older one, if shown at all, comes after it and says it was superseded.
    if (at(older.title) > -1) {
      expect(at(older.title)).toBeGreaterThan(at(newer.title));
      expect(context).toMatch(/Superseded on \d{4}-\d{2}-\d{2} by/);
    }
  });

  it('a wrong supersession is undone over HTTP: the older record is current again', async () => {
    const undone = await send(world, 'DELETE', `/v1/memories/${older.record_id}/supersession`);
    expect(undone.status).toBe(200);
    expect(undone.json.superseded_by).toBeUndefined();
    const current = (
      await get<{ items: MemoryRecord[] }>(
        world,
        `/v1/memories?namespace=${encodeURIComponent(namespace)}&current=true&limit=100`,
      )
    ).items.map((r) => r.record_id);
    expect(current).toEqual(expect.arrayContaining([older.record_id, newer.record_id]));
  });
});

describe('an ACP agent names the memory its record replaces, and the questions it answers', () => {
  let world: World;
  let namespace: string;

  beforeAll(async () => {
    world = await makeWorld({
      KIRO_LEARN_EXTRACTOR: 'acp',
      KIRO_LEARN_COMPRESSOR_COMMAND: testAgentCommand('records').join(' '),
    });
    namespace = projectIdentity(world.project, { env: world.env }).namespace;
    startCollector(world);
  });
  afterAll(() => world?.cleanup());

  it('the record the agent wrote supersedes the memory it named; the questions are stored', async () => {
    // A memory saved earlier (as an agent's save_observation would), which the scripted
    // agent names as replaced when it is shown among the project's existing memories.
    const stale = {
      record_id: newRecordId(),
      namespace,
      title: 'Webhook body parsing [replace me]',
      summary: 'The webhook route parses the body with express.json().',
      facts: [],
      concepts: [],
      files_touched: ['src/webhooks/stripe.ts'],
      observation_type: 'decision',
      strategy: 'agent',
      source_event_ids: [newUlid()],
      created_at: new Date(Date.now() - 86_400_000).toISOString(),
    };
    const saved = await send(world, 'POST', '/v1/memories', stale);
    expect(saved).toMatchObject({ status: 200, json: { stored: true } });
    turn(
      world,
      'acp-session',
      'the stripe webhook rejects every event, parse the raw body instead',
      [
        {
          name: 'Edit',
          input: {
            file_path: `${world.project}/src/webhooks/stripe.ts`,
            old_string: 'express.json()',
            new_string: "express.raw({ type: 'application/json' })",
          },
        },
      ],
      'The webhook route takes the raw body now.',
    );
    const run = await extraction(world, namespace);
    expect(run).toMatchObject({ status: 'ok', extractor: 'acp' });
    const stored = await records(world, namespace);
    const summary = stored.find((r) => r.title.startsWith('Test agent summary'))!;
    expect(summary.questions).toHaveLength(2);
    const old = stored.find((r) => r.record_id === stale.record_id)!;
    expect(old).toMatchObject({
      superseded_by: summary.record_id,
      superseded_reason: 'named by the extractor as replaced',
    });
  });
});
