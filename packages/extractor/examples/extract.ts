// examples/extract.ts: one turn distilled into memory records (the ACP compressor when installed, else the built-in rules).
import { createExtractor } from '@kiro-learn/extractor';
import { type Event, newEventId } from '@kiro-learn/schema';

const namespace = '/actor/dev/project/payments-api/';
const event = (kind: Event['kind'], body: Event['body']): Event => ({
  event_id: newEventId(),
  session_id: 'session-1',
  actor_id: 'dev',
  namespace,
  schema_version: 1,
  kind,
  body,
  valid_time: new Date().toISOString(),
  source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'example' },
});

const extractor = createExtractor({ command: 'kiro-cli acp --agent kiro-learn-compressor' });
const { records } = await extractor.extract({
  namespace,
  events: [
    event('prompt', { type: 'text', content: 'Why does the webhook test fail?' }),
    event('tool_use', {
      type: 'json',
      data: {
        tool_name: 'execute_bash',
        tool_input: { command: 'pnpm vitest run src/webhooks' },
        tool_response: {
          success: false,
          result: [{ exit_status: '1', stdout: 'TypeError: x is undefined\n Tests  1 failed (1)' }],
        },
      },
    }),
    event('session_summary', { type: 'text', content: '' }),
  ],
});
for (const record of records) console.log(`${record.observation_type}: ${record.title}`);
if (records.length === 0) process.exit(1);
