// Plan an install without writing (the dry run), then map a hook payload to an Event.

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
if ('hook' in mapped) {
  const event = buildEvent(mapped.hook, {
    identity: projectIdentity(process.cwd()),
    sessionId: mapped.hook.sessionId ?? 'local',
    eventId: '01JD8X6Q9Z0000000000000000',
    validTime: new Date().toISOString(),
    version: '0.1.0',
    clientId: 'example',
  });
  console.log(event.namespace, event.kind);
}
