import { type HookEvent, type MapResult, type Payload, skip, str } from '../hook.js';

/**
 * Kiro CLI agent-config hooks (camelCase names, no session id) and v1 workspace hooks of
 * Kiro IDE ≥ 1.0 / Kiro CLI v3 (PascalCase names, `session_id`) share one entry: the
 * payload tells them apart, and the mapping is the same.
 */
export function mapKiro(payload: Payload): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return skip('the payload has no hook_event_name', true);
  const base = {
    surface: 'kiro-cli' as const,
    hook: name,
    ...(str(payload['cwd']) ? { cwd: str(payload['cwd'])! } : {}),
    ...(str(payload['session_id']) ? { sessionId: str(payload['session_id'])! } : {}),
    startsSession: false,
    retrieve: false,
  };
  const hook = (rest: Pick<HookEvent, 'kind' | 'body'> & Partial<HookEvent>): MapResult => ({
    hook: { ...base, ...rest },
  });
  switch (name.toLowerCase()) {
    case 'agentspawn':
    case 'sessionstart':
      return hook({
        kind: 'note',
        body: { type: 'json', data: { hook: name } },
        startsSession: true,
      });
    case 'userpromptsubmit': {
      const prompt = str(payload['prompt']);
      // Kiro IDE 1.0 sends empty prompts: nothing to record and nothing to search for.
      if (!prompt?.trim()) return skip('empty prompt');
      return hook({ kind: 'prompt', body: { type: 'text', content: prompt }, retrieve: true });
    }
    case 'posttooluse':
      return hook({ kind: 'tool_use', body: toolBody(payload) });
    case 'stop':
      return hook({
        kind: 'session_summary',
        body: summaryBody(str(payload['assistant_response'])),
      });
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

export function toolBody(payload: Payload): HookEvent['body'] {
  return {
    type: 'json',
    data: {
      tool_name: str(payload['tool_name']) ?? 'unknown',
      tool_input: payload['tool_input'] ?? null,
      tool_response: payload['tool_response'] ?? null,
    },
  };
}

/** The assistant's text where the agent gives it; empty otherwise, rebuilt downstream. */
export function summaryBody(text: string | undefined): HookEvent['body'] {
  return text?.trim()
    ? { type: 'message', turns: [{ role: 'assistant', content: text }] }
    : { type: 'text', content: '' };
}
