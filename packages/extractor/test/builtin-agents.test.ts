// Failures as Claude Code and Kiro IDE 1.x report them become error records, like Kiro
// CLI's: the payloads are the agents' own (test/fixtures/agents), mapped as the shims map them.
import { readFileSync } from 'node:fs';
import type { Event } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { createBuiltinExtractor } from '../src/index.js';
import { eventFrom, NAMESPACE } from './fixtures/session.js';

const payload = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/agents/${name}.json`, import.meta.url), 'utf8'));

const prompt = (sessionId: string) =>
  eventFrom('prompt', { type: 'text', content: 'why do the webhook tests fail?' }, sessionId);

/** A tool use as the agent's shim records it, in session `sessionId`. */
const toolUse = (
  sessionId: string,
  tool_name: unknown,
  tool_input: unknown,
  tool_response: unknown,
) =>
  eventFrom(
    'tool_use',
    { type: 'json', data: { tool_name, tool_input, tool_response } },
    sessionId,
  );

async function errors(events: Event[]) {
  const { records } = await createBuiltinExtractor().extract({ namespace: NAMESPACE, events });
  return records.filter((record) => record.observation_type === 'error');
}

describe('built-in extractor on other agents’ failures', () => {
  it('reads a Kiro IDE 1.x string response ending in "Exit Code: 1" as a failed command', async () => {
    const p = payload('PostToolUse-ide-string-response');
    const tool = toolUse('ide', p.tool_name, p.tool_input, p.tool_response);
    const [error, ...rest] = await errors([prompt('ide'), tool]);
    expect(rest).toEqual([]);
    expect(error!.title).toMatch(
      /^StripeSignatureVerificationError in src\/webhooks\/stripe\.test\.ts > rejects unsigned payloads/,
    );
    expect(error!.summary).toContain('failed (exit 1; 1 failed, 11 passed of 12)');
    expect(error!.summary).toContain(
      'No signatures found matching the expected signature for payload.',
    );
    expect(error!.summary).not.toContain('Exit Code');
  });

  it('reads a succeeding Kiro IDE command ("Exit Code: 0") as no error', async () => {
    const tool = toolUse('ide', 'executeBash', {}, 'Output:\nok\nExit Code: 0');
    expect(await errors([prompt('ide'), tool])).toEqual([]);
  });

  it('names the command and the failure of a Claude Code PostToolUseFailure', async () => {
    const p = payload('PostToolUseFailure');
    // As the Claude Code shim maps it: the error as a failed response.
    const tool = toolUse('claude', p.tool_name, p.tool_input, {
      success: false,
      error: p.error,
      exit_code: 1,
    });
    const [error, ...rest] = await errors([prompt('claude'), tool]);
    expect(rest).toEqual([]);
    expect(error!.summary).toContain(
      '`pnpm vitest run src/webhooks` failed (exit 1; 1 failed, 11 passed of 12)',
    );
    expect(error!.summary).toContain('StripeSignatureVerificationError: No signatures found');
  });

  it("reads Augment's launch-process (a tool named for no shell) as a command and its failure", async () => {
    // As the Augment shim maps PostToolUse with tool_error.
    const tool = toolUse(
      'augment',
      'launch-process',
      { command: 'pnpm db:migrate', wait: true },
      {
        success: false,
        error: 'Exit code 1: the command failed',
        exit_code: 1,
        output: 'error: column "id" cannot be cast automatically to type uuid',
      },
    );
    const [error, ...rest] = await errors([prompt('augment'), tool]);
    expect(rest).toEqual([]);
    expect(error!.title).toMatch(/cannot be cast automatically to type uuid.*`pnpm db:migrate`/);
  });
});
