import { type Loose, type MapInput, type MapResult, skip, str } from '../../hook.js';
import { skipOwnTool, summaryBody } from '../shared.js';
import type { KiroLegacyToolPayload } from './payload.js';

/**
 * Legacy Kiro IDE `.kiro.hook` files run a command with the payload in `USER_PROMPT` and
 * the event chosen by the command line (`prompt`, `tool`, `stop`, or the trigger names).
 */
export function mapKiroIde({ args, env }: Pick<MapInput, 'args' | 'env'>): MapResult {
  const event = args[0];
  const text = env['USER_PROMPT'] ?? '';
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
      return legacyTool(text, base);
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

function legacyTool(
  text: string,
  base: { surface: 'kiro-ide'; startsSession: boolean; retrieve: boolean },
): MapResult {
  let parsed: Loose<KiroLegacyToolPayload> | undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value;
  } catch {
    // plain text: kept whole as the tool response
  }
  const hook = (data: Record<string, unknown>): MapResult => ({
    hook: { ...base, hook: 'postToolUse', kind: 'tool_use', body: { type: 'json', data } },
  });
  if (!parsed) return hook({ tool_name: 'unknown', tool_input: null, tool_response: text });
  const name = str(parsed.toolName);
  const own = skipOwnTool(name);
  if (own) return own;
  const success = parsed.toolSuccess;
  const result = parsed.toolResult ?? null;
  return hook({
    tool_name: name ?? 'unknown',
    tool_input: parsed.toolArgs ?? null,
    tool_response: typeof success === 'boolean' ? { success, result } : result,
  });
}
