// examples/init-and-map.ts: an install planned without writing (the dry run), then a hook payload mapped to an Event.

import { projectIdentity } from '@kiro-learn/schema/node';
import { buildEvent, formatPlan, mapClaudeCode, planInit } from '@kiro-learn/shims';

const plan = planInit({
  cwd: process.cwd(),
  surfaces: ['claude-code'],
  mcpServer: { command: process.execPath, args: ['/path/to/kiro-learn-mcp.js'] },
});
process.stdout.write(formatPlan(plan, true)); // applyPlan(plan) would write it

const mapped = mapClaudeCode({
  payload: {
    hook_event_name: 'UserPromptSubmit',
    session_id: 'abc',
    cwd: process.cwd(),
    prompt: 'why does the webhook test fail?',
  },
});
if (!('hook' in mapped)) process.exit(1); // otherwise the payload is not one kiro-learn records
const event = buildEvent(mapped.hook, {
  identity: projectIdentity(process.cwd()),
  sessionId: mapped.hook.sessionId ?? 'local',
  eventId: '01JD8X6Q9Z0000000000000000',
  validTime: new Date().toISOString(),
  version: '0.1.0',
  clientId: 'example',
});
console.log(event.namespace, event.kind);
if (event.kind !== 'prompt') process.exit(1);
