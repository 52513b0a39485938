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

async function errors(events: Event[]) {
  const { records } = await createBuiltinExtractor().extract({ namespace: NAMESPACE, events });
  return records.filter((record) => record.observation_type === 'error');
}

describe('built-in extractor on other agents’ failures', () => {
  it('reads a Kiro IDE 1.x string response ending in "Exit Code: 1" as a failed command', async () => {
    const p = payload('PostToolUse-ide-string-response');
    const tool = eventFrom(
      'tool_use',
      {
        type: 'json',
        data: { tool_name: p.tool_name, tool_input: p.tool_input, tool_response: p.tool_response },
      },
      'ide',
    );
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
    const tool = eventFrom(
      'tool_use',
      {
        type: 'json',
        data: {
          tool_name: 'executeBash',
          tool_input: {},
          tool_response: 'Output:\nok\nExit Code: 0',
        },
      },
      'ide',
    );
    expect(await errors([prompt('ide'), tool])).toEqual([]);
  });

  it('names the command and the failure of a Claude Code PostToolUseFailure', async () => {
    const p = payload('PostToolUseFailure');
    // As the Claude Code shim maps it: the error as a failed response.
    const tool = eventFrom(
      'tool_use',
      {
        type: 'json',
        data: {
          tool_name: p.tool_name,
          tool_input: p.tool_input,
          tool_response: { success: false, error: p.error, exit_code: 1 },
        },
      },
      'claude',
    );
    const [error, ...rest] = await errors([prompt('claude'), tool]);
    expect(rest).toEqual([]);
    expect(error!.summary).toContain(
      '`pnpm vitest run src/webhooks` failed (exit 1; 1 failed, 11 passed of 12)',
    );
    expect(error!.summary).toContain('StripeSignatureVerificationError: No signatures found');
  });

  it("reads Augment's launch-process (a tool named for no shell) as a command and its failure", async () => {
    // As the Augment shim maps PostToolUse with tool_error.
    const tool = eventFrom(
      'tool_use',
      {
        type: 'json',
        data: {
          tool_name: 'launch-process',
          tool_input: { command: 'pnpm db:migrate', wait: true },
          tool_response: {
            success: false,
            error: 'Exit code 1: the command failed',
            exit_code: 1,
            output: 'error: column "id" cannot be cast automatically to type uuid',
          },
        },
      },
      'augment',
    );
    const [error, ...rest] = await errors([prompt('augment'), tool]);
    expect(rest).toEqual([]);
    expect(error!.title).toMatch(/cannot be cast automatically to type uuid.*`pnpm db:migrate`/);
  });
});
