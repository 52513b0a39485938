// examples/test-agent.ts: the ACP extractor against the scripted test agent (a real ACP agent over stdio).
import { createAcpExtractor } from '@kiro-learn/extractor';
import {
  TEST_AGENT_MODES,
  testAgentCommand,
  testAgentPath,
} from '@kiro-learn/extractor/test-agent';
import { type Event, newEventId } from '@kiro-learn/schema';

console.log(`${testAgentPath()}: ${TEST_AGENT_MODES.join(', ')}`);
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

// `instant`: two valid records and one of an unknown type (dropped), in one reply.
const extractor = createAcpExtractor({ command: testAgentCommand('instant') });
const { records, attempts } = await extractor.extract({
  namespace,
  events: [
    event('prompt', { type: 'text', content: 'Why does the webhook test fail?' }),
    event('tool_use', {
      type: 'json',
      data: { tool_name: 'fs_read', tool_input: { path: 'src/webhooks.ts' }, tool_response: 'ok' },
    }),
  ],
});
for (const record of records) console.log(`${record.observation_type}: ${record.title}`);
console.log(`${attempts} attempt(s)`);
if (records.length !== 2) process.exit(1);
