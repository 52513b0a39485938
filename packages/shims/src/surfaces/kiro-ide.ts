import { type MapResult, type Payload, skip, str } from '../hook.js';
import { summaryBody } from './kiro.js';

/**
 * Legacy Kiro IDE `.kiro.hook` files run a command with the payload in `USER_PROMPT` and
 * the event chosen by the command line (`prompt`, `tool`, `stop`, or the trigger names).
 */
export function mapKiroIde(event: string | undefined, text: string): MapResult {
  const base = { surface: 'kiro-ide' as const, startsSession: false, retrieve: false };
  switch (event) {
    case 'prompt':
    case 'promptSubmit':
      if (!text.trim()) return skip('empty prompt');
      return {
        hook: {
          ...base,
          hook: 'promptSubmit',
          kind: 'prompt',
          body: { type: 'text', content: text },
          retrieve: true,
        },
      };
    case 'tool':
    case 'postToolUse':
      if (!text.trim()) return skip('postToolUse without a payload', true);
      return { hook: { ...base, hook: 'postToolUse', kind: 'tool_use', body: legacyTool(text) } };
    case 'stop':
    case 'agentStop':
      // Usually empty: the turn is rebuilt from its own events, so an empty stop adds nothing.
      if (!text.trim()) return skip('empty agentStop');
      return {
        hook: { ...base, hook: 'agentStop', kind: 'session_summary', body: summaryBody(text) },
      };
    default:
      return skip(
        `unknown Kiro IDE event ${JSON.stringify(event ?? '')}: use prompt, tool or stop`,
        true,
      );
  }
}

function legacyTool(text: string): Extract<MapResult, { hook: unknown }>['hook']['body'] {
  let parsed: Payload | undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value as Payload;
  } catch {
    // plain text: kept whole as the tool response
  }
  if (!parsed)
    return { type: 'json', data: { tool_name: 'unknown', tool_input: null, tool_response: text } };
  const success = parsed['toolSuccess'];
  const result = parsed['toolResult'] ?? null;
  return {
    type: 'json',
    data: {
      tool_name: str(parsed['toolName']) ?? 'unknown',
      tool_input: parsed['toolArgs'] ?? null,
      tool_response: typeof success === 'boolean' ? { success, result } : result,
    },
  };
}
