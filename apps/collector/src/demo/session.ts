/**
 * A recorded Kiro CLI session, as the agent's hooks deliver it (the payloads of
 * shared/fixtures/hook-payloads/kiro-cli, with a passing re-run added): a Stripe webhook
 * that fails signature verification, found and fixed in one turn.
 */
export interface RecordedHook {
  /** What the demo prints for the step. */
  label: string;
  /** The hook payload, minus `cwd` (the demo's project directory is put in). */
  payload: Record<string, unknown>;
}

export const FIRST_SESSION: readonly RecordedHook[] = [
  { label: 'the agent starts', payload: { hook_event_name: 'agentSpawn' } },
  {
    label: 'you ask',
    payload: {
      hook_event_name: 'userPromptSubmit',
      prompt:
        "The Stripe webhook handler returns 400 on every event since yesterday's deploy. Can you find out why?",
    },
  },
  {
    label: 'the agent reads a file',
    payload: {
      hook_event_name: 'postToolUse',
      tool_name: 'fs_read',
      tool_input: {
        operations: [{ mode: 'Line', path: 'src/webhooks/stripe.ts', start_line: 1, end_line: 80 }],
      },
      tool_response: {
        success: true,
        result: [
          "import express from 'express';\nimport Stripe from 'stripe';\n\nexport const router = express.Router();\nrouter.use(express.json());\n\nrouter.post('/webhooks/stripe', async (req, res) => {\n  const sig = req.headers['stripe-signature'];\n  const event = stripe.webhooks.constructEvent(req.body, sig, secret);\n  ...",
        ],
      },
    },
  },
  {
    label: 'the agent runs the tests (they fail)',
    payload: {
      hook_event_name: 'postToolUse',
      tool_name: 'execute_bash',
      tool_input: { command: 'pnpm vitest run src/webhooks', summary: 'Run the webhook tests' },
      tool_response: {
        success: false,
        result: [
          {
            exit_status: '1',
            stdout:
              'FAIL src/webhooks/stripe.test.ts > rejects unsigned payloads\nStripeSignatureVerificationError: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?\n Tests  1 failed | 11 passed (12)',
            stderr: '',
          },
        ],
      },
    },
  },
  {
    label: 'the agent edits the handler',
    payload: {
      hook_event_name: 'postToolUse',
      tool_name: 'fs_write',
      tool_input: {
        command: 'str_replace',
        path: 'src/webhooks/stripe.ts',
        old_str: 'router.use(express.json());',
        new_str: "router.use('/webhooks/stripe', express.raw({ type: 'application/json' }));",
        summary: 'Keep the raw body for signature verification',
      },
      tool_response: { success: true, result: ['Replaced 1 occurrence in src/webhooks/stripe.ts'] },
    },
  },
  {
    label: 'the agent re-runs the tests (they pass)',
    payload: {
      hook_event_name: 'postToolUse',
      tool_name: 'execute_bash',
      tool_input: {
        command: 'pnpm vitest run src/webhooks',
        summary: 'Run the webhook tests again',
      },
      tool_response: {
        success: true,
        result: [{ exit_status: '0', stdout: ' Tests  12 passed (12)', stderr: '' }],
      },
    },
  },
  {
    label: 'the turn ends',
    payload: {
      hook_event_name: 'stop',
      assistant_response:
        'The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON. I switched the webhook route to express.raw() and the webhook tests pass again (12/12).',
    },
  },
];

/** The second session's turn ends (Kiro CLI's stop often carries no text). */
export const NEXT_STOP: RecordedHook = {
  label: 'the turn ends',
  payload: { hook_event_name: 'stop' },
};

/** The next day, a new session starts (Kiro CLI's agentSpawn: a fresh session id). */
export const NEXT_SPAWN: RecordedHook = {
  label: 'a new session starts, the next day',
  payload: { hook_event_name: 'agentSpawn' },
};

/** In it, you ask about the same problem. */
export const NEXT_PROMPT: RecordedHook = {
  label: 'you ask',
  payload: {
    hook_event_name: 'userPromptSubmit',
    prompt:
      'Stripe webhooks fail signature verification again after I added a body parser. What did we do last time?',
  },
};
