// Every fixture payload, per surface, becomes the right Event: the expected events are
// golden files under test/golden/ (reviewed by hand; regenerate with `vitest -u`).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSchema } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { describe, expect, it } from 'vitest';
import { buildEvent } from '../src/event.js';
import type { MapResult, Payload } from '../src/hook.js';
import { mapClaudeCode } from '../src/surfaces/claude-code.js';
import { mapKiro } from '../src/surfaces/kiro.js';
import { mapKiroIde } from '../src/surfaces/kiro-ide.js';

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

describe.each([
  ['kiro-cli', mapKiro],
  ['kiro-v1-hooks', mapKiro],
  ['claude-code', mapClaudeCode],
])('%s fixtures', (dir, map) => {
  const files = readdirSync(join(fixtures, dir)).filter((name) => name.endsWith('.json'));
  it.each(files)('%s', async (file) => {
    const payload = JSON.parse(readFileSync(join(fixtures, dir, file), 'utf8')) as Payload;
    await expect(golden(outcome(map(payload)))).toMatchFileSnapshot(`golden/${dir}/${file}`);
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
    await expect(golden(outcome(mapKiroIde(event, text)))).toMatchFileSnapshot(
      `golden/kiro-ide-legacy/${name}.json`,
    );
  });
});

describe('Claude Code Stop', () => {
  it('records the last assistant message of the transcript', () => {
    const transcript = join(mkdtempSync(join(tmpdir(), 'kl-transcript-')), 't.jsonl');
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
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
      hook_event_name: 'Stop',
      session_id: 's1',
      cwd: '/home/dev/src/payments-api',
      transcript_path: transcript,
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
