// Every fixture payload, per surface, becomes the right Event: the expected events are
// golden files under test/golden/ (reviewed by hand; regenerate with `vitest -u`).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSchema } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { describe, expect, it } from 'vitest';
import { mapAugment } from '../src/agents/augment/map.js';
import { mapClaudeCode } from '../src/agents/claude-code/map.js';
import { mapCline } from '../src/agents/cline/map.js';
import { mapCodex } from '../src/agents/codex/map.js';
import { mapCopilot } from '../src/agents/copilot/map.js';
import { mapCursor } from '../src/agents/cursor/map.js';
import { mapGemini } from '../src/agents/gemini-cli/map.js';
import { mapKiro } from '../src/agents/kiro/map.js';
import { mapKiroIde } from '../src/agents/kiro-ide-legacy/map.js';
import { mapOpenCode } from '../src/agents/opencode/map.js';
import { mapWindsurf } from '../src/agents/windsurf/map.js';
import { buildEvent } from '../src/event.js';
import type { MapInput, MapResult, Payload } from '../src/hook.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'hook-payloads');
const identity = projectIdentity('/home/dev/src/payments-api', {
  env: { KIRO_LEARN_ACTOR: 'dev' },
  home: '/home/dev',
});
const context = {
  identity,
  sessionId: '01JFILESESS10N0000000000AA',
  eventId: '01JD8X6Q9Z0000000000000000',
  validTime: '2026-11-20T09:30:00.000+01:00',
  version: '0.1.0',
  clientId: 'dev-laptop',
};

/** The Event a hook maps to (validated against the wire schema), or why none is recorded. */
function outcome(result: MapResult): unknown {
  if ('skip' in result) return { skip: result.skip, warn: result.warn };
  const { hook } = result;
  const event = buildEvent(hook, { ...context, sessionId: hook.sessionId ?? context.sessionId });
  expect(EventSchema.safeParse(event).error).toBeUndefined();
  return {
    event,
    hook: hook.hook,
    ...(hook.sessionId ? {} : { session: 'from the per-project session file' }),
    retrieve: hook.retrieve,
    startsSession: hook.startsSession,
  };
}

const golden = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

// Each fixture folder with the agent module that maps it and the command-line words
// `init` writes for it (v1 workspace hooks installed for Kiro IDE name their surface).
describe.each<[string, (input: MapInput) => MapResult, string[]]>([
  ['kiro-cli', mapKiro, []],
  ['kiro-v1-hooks', mapKiro, ['kiro-ide']],
  ['claude-code', mapClaudeCode, []],
  ['codex', mapCodex, []],
  ['gemini-cli', mapGemini, []],
  ['cursor', mapCursor, []],
  ['copilot-cli', mapCopilot, []],
  ['vscode', mapCopilot, []],
  ['cline', mapCline, []],
  ['opencode', mapOpenCode, []],
  ['augment', mapAugment, []],
  ['windsurf', mapWindsurf, []],
])('%s fixtures', (dir, map, args) => {
  const files = readdirSync(join(fixtures, dir)).filter(
    (name) =>
      name.endsWith('.json') && !name.includes('example') && !name.startsWith('claude-hooks'),
  );
  it.each(files)('%s', async (file) => {
    const payload = JSON.parse(readFileSync(join(fixtures, dir, file), 'utf8')) as Payload;
    await expect(golden(outcome(map({ payload, args, env: {} })))).toMatchFileSnapshot(
      `golden/${dir}/${file}`,
    );
  });
});

describe('legacy Kiro IDE (USER_PROMPT)', () => {
  it.each([
    ['promptSubmit', 'prompt', 'why does the webhook test fail?'],
    [
      'postToolUse',
      'tool',
      '{"toolName":"readFile","toolArgs":{"path":"src/webhooks/stripe.ts"},"toolResult":"import express ...","toolSuccess":true}',
    ],
    ['postToolUse-plain-text', 'postToolUse', 'wrote 3 files'],
    ['agentStop-empty', 'agentStop', ''],
    ['agentStop', 'stop', 'Switched the webhook route to express.raw().'],
    ['unknown-event', 'save', 'x'],
  ])('%s', async (name, event, text) => {
    await expect(
      golden(outcome(mapKiroIde({ args: [event], env: { USER_PROMPT: text } }))),
    ).toMatchFileSnapshot(`golden/kiro-ide-legacy/${name}.json`);
  });
});

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const said = (text: string, extra: Record<string, unknown> = {}) =>
  line({
    type: 'assistant',
    ...extra,
    message: { role: 'assistant', content: [{ type: 'text', text }] },
  });

function transcriptFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kl-transcript-')), 't.jsonl');
  writeFileSync(path, text);
  return path;
}

const stop = (extra: Record<string, unknown>) =>
  mapClaudeCode({
    payload: {
      hook_event_name: 'Stop',
      session_id: 's1',
      cwd: '/home/dev/src/payments-api',
      ...extra,
    },
  });

const answer = (result: MapResult) =>
  'hook' in result && result.hook.body.type === 'message'
    ? result.hook.body.turns[0]!.content
    : undefined;

describe('Claude Code Stop', () => {
  it("records last_assistant_message, not the stale transcript's previous answer", () => {
    // The transcript is not yet written when Stop fires: it still ends with the last turn.
    const transcript = transcriptFile(
      line({ type: 'user', message: { role: 'user', content: 'migrate users to uuid' } }) +
        said('Migration 0007 switches users.id to UUID.'),
    );
    const result = stop({
      transcript_path: transcript,
      last_assistant_message: 'Switched the webhook route to express.raw(); 12/12 pass.',
    });
    expect(answer(result)).toBe('Switched the webhook route to express.raw(); 12/12 pass.');
  });

  it("falls back to the transcript, skipping a sub-agent's lines", () => {
    const transcript = transcriptFile(
      said('The main answer: migration 0007 switches users.id to UUID.') +
        said('Found 3 call sites of constructEvent.', { isSidechain: true }),
    );
    expect(answer(stop({ transcript_path: transcript }))).toBe(
      'The main answer: migration 0007 switches users.id to UUID.',
    );
  });

  it('records the last assistant message of the transcript', () => {
    const transcript = join(mkdtempSync(join(tmpdir(), 'kl-transcript-')), 't.jsonl');
    writeFileSync(
      transcript,
      line({ type: 'user', message: { role: 'user', content: 'migrate users to uuid' } }) +
        line({
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
        }) +
        line({
          type: 'assistant',
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'hmm' },
              { type: 'text', text: 'Migration 0007 switches users.id to UUID.' },
            ],
          },
        }) +
        line({
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'tool_use', name: 'Edit' }] },
        }),
    );
    const result = mapClaudeCode({
      payload: {
        hook_event_name: 'Stop',
        session_id: 's1',
        cwd: '/home/dev/src/payments-api',
        transcript_path: transcript,
      },
    });
    expect(result).toMatchObject({
      hook: {
        kind: 'session_summary',
        body: {
          type: 'message',
          turns: [{ role: 'assistant', content: 'Migration 0007 switches users.id to UUID.' }],
        },
      },
    });
  });
});

describe("kiro-learn's own MCP tools", () => {
  it.each<[string, (input: MapInput) => MapResult, Record<string, string>]>([
    [
      'Claude Code',
      mapClaudeCode,
      { hook_event_name: 'PostToolUse', tool_name: 'mcp__kiro-learn__search_memory' },
    ],
    [
      'Claude Code failure',
      mapClaudeCode,
      {
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'mcp__kiro-learn__get_memories',
        error: 'x',
      },
    ],
    [
      'Kiro CLI',
      mapKiro,
      { hook_event_name: 'postToolUse', tool_name: '@kiro-learn/search_memory' },
    ],
    [
      'Kiro v1 hooks',
      mapKiro,
      { hook_event_name: 'PostToolUse', tool_name: 'mcp_kiro_learn_get_memories' },
    ],
  ])('are not recorded (%s)', (_agent, map, payload) => {
    const result = map({
      payload: { cwd: '/p', session_id: 's', tool_response: { content: 'memory' }, ...payload },
      args: [],
      env: {},
    });
    expect(result).toEqual({
      skip: `${payload.tool_name} is kiro-learn's own memory tool`,
      warn: false,
    });
  });

  it("still records other MCP servers' tools of the same name", () => {
    const result = mapClaudeCode({
      payload: {
        hook_event_name: 'PostToolUse',
        tool_name: 'mcp__github__search_memory',
        tool_input: {},
      },
    });
    expect(result).toHaveProperty('hook.kind', 'tool_use');
  });

  it('skips them in legacy Kiro IDE hooks too', () => {
    const result = mapKiroIde({
      args: ['tool'],
      env: {
        USER_PROMPT: '{"toolName":"@kiro-learn/search_memory","toolArgs":{},"toolResult":"x"}',
      },
    });
    expect(result).toMatchObject({ skip: expect.stringContaining('own memory tool') });
  });
});

describe('Claude Code hooks run by another agent', () => {
  const fixture = (dir: string, name: string) =>
    JSON.parse(readFileSync(join(fixtures, dir, `${name}.json`), 'utf8')) as Payload;

  it.each([
    ['Cursor (third-party configs on)', 'cursor', 'claude-hooks-postToolUse', mapCursor],
    ['VS Code agent mode', 'vscode', 'UserPromptSubmit', mapCopilot],
    ['Copilot CLI', 'copilot-cli', 'PostToolUseFailure', mapCopilot],
  ])('records %s as that agent, exactly as its own hooks do', (_agent, dir, name, own) => {
    const payload = fixture(dir, name);
    const viaClaude = mapClaudeCode({ payload });
    expect(viaClaude).toEqual(own({ payload }));
    expect(viaClaude).toHaveProperty('hook.surface', dir);
  });

  it("keeps Claude Code's own payloads as Claude Code's", () => {
    expect(mapClaudeCode({ payload: fixture('claude-code', 'PostToolUse') })).toHaveProperty(
      'hook.surface',
      'claude-code',
    );
  });
});
