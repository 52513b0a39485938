// What the collector's POST /v1/hooks/:surface does with a payload: the same agent module
// as the hook script, with its own store as the `record` step, returning what the hook prints.

import { handleHook } from '@kiro-learn/shims';

const printed = await handleHook(
  {
    surface: 'codex',
    stdin: Buffer.from(
      JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: 'abc',
        cwd: process.cwd(),
        prompt: 'why does the webhook test fail?',
      }),
    ),
    env: { KIRO_LEARN_HOME: '/tmp/kiro-learn-example' },
    cwd: process.cwd(),
    stderr: (line) => process.stderr.write(line),
  },
  async (prepared) => {
    // Store prepared.event here (the collector ingests it); return context for a prompt.
    console.log(prepared.event.kind, prepared.retrieval);
    return 'Prior observations: the webhook needs the raw body.';
  },
);
// Codex reads JSON: {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":…}}
process.stdout.write(printed ?? '');
