import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { skipOwnTool, summaryBody, toolBody } from '../shared.js';
import type {
  GeminiAfterAgent,
  GeminiAfterTool,
  GeminiBeforeAgent,
  GeminiSessionStart,
} from './payload.js';

/** Gemini CLI hooks: BeforeAgent is the prompt, AfterAgent ends the turn with its answer. */
export function mapGemini({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return skip('the payload has no hook_event_name', true);
  const base = {
    surface: 'gemini-cli' as const,
    hook: name,
    ...(str(payload['cwd']) ? { cwd: str(payload['cwd'])! } : {}),
    ...(str(payload['session_id']) ? { sessionId: str(payload['session_id'])! } : {}),
    startsSession: false,
    retrieve: false,
  };
  const hook = (rest: Pick<HookEvent, 'kind' | 'body'> & Partial<HookEvent>): MapResult => ({
    hook: { ...base, ...rest },
  });
  switch (name) {
    case 'SessionStart':
      return hook({
        kind: 'note',
        body: {
          type: 'json',
          data: { hook: name, source: str((payload as Loose<GeminiSessionStart>).source) ?? null },
        },
        startsSession: true,
      });
    case 'BeforeAgent': {
      const prompt = str((payload as Loose<GeminiBeforeAgent>).prompt);
      if (!prompt?.trim()) return skip('empty prompt');
      return hook({ kind: 'prompt', body: { type: 'text', content: prompt }, retrieve: true });
    }
    case 'AfterTool': {
      const p = payload as Loose<GeminiAfterTool>;
      const own = skipOwnTool(str(p.tool_name));
      if (own) return own;
      // A failed tool carries `error`: said the way the extractors read failures.
      const response = p.tool_response;
      const failed =
        response !== null &&
        typeof response === 'object' &&
        (response as { error?: unknown }).error !== undefined &&
        (response as { error?: unknown }).error !== null;
      return hook({
        kind: 'tool_use',
        body: toolBody(payload, failed ? { ...(response as object), success: false } : response),
      });
    }
    case 'AfterAgent':
      return hook({
        kind: 'session_summary',
        body: summaryBody(str((payload as Loose<GeminiAfterAgent>).prompt_response)),
      });
    case 'PreCompress':
    case 'SessionEnd':
      return hook({ kind: 'session_summary', body: summaryBody(undefined) });
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

/**
 * What a Gemini CLI hook prints: JSON only, always (plain text on stdout breaks the
 * hook), the context in `hookSpecificOutput.additionalContext`.
 */
export function geminiAnswer(hook: HookEvent | undefined, context: string | undefined): string {
  if (!hook || !context) return '{}\n';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: hook.hook, additionalContext: context } })}\n`;
}
