import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { hooksOf, namedFrame, noHookName } from '../shared.js';
import type {
  GeminiAfterAgent,
  GeminiAfterTool,
  GeminiBeforeAgent,
  GeminiSessionStart,
} from './payload.js';

/** Gemini CLI hooks: BeforeAgent is the prompt, AfterAgent ends the turn with its answer. */
export function mapGemini({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const frame = namedFrame('gemini-cli', payload);
  if (!frame) return noHookName();
  const h = hooksOf(frame);
  switch (frame.name) {
    case 'SessionStart':
      return h.sessionStart({ source: str((payload as Loose<GeminiSessionStart>).source) ?? null });
    case 'BeforeAgent':
      return h.prompt(str((payload as Loose<GeminiBeforeAgent>).prompt));
    case 'AfterTool': {
      // A failed tool carries `error`: said the way the extractors read failures.
      const response = (payload as Loose<GeminiAfterTool>).tool_response;
      const failed =
        response !== null &&
        typeof response === 'object' &&
        (response as { error?: unknown }).error !== undefined &&
        (response as { error?: unknown }).error !== null;
      return h.tool(payload, failed ? { ...(response as object), success: false } : response);
    }
    case 'AfterAgent':
      return h.turnEnd(str((payload as Loose<GeminiAfterAgent>).prompt_response));
    case 'PreCompress':
    case 'SessionEnd':
      return h.turnEnd(undefined);
    default:
      return skip(`hook ${frame.name} is not recorded`);
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
