import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { skipOwnTool, summaryBody, toolBody } from '../shared.js';
import type { CodexSessionStart, CodexStop, CodexUserPromptSubmit } from './payload.js';

/** Codex CLI hooks: Claude Code's shape; Stop carries `last_assistant_message`. */
export function mapCodex({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return skip('the payload has no hook_event_name', true);
  const base = {
    surface: 'codex' as const,
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
          data: { hook: name, source: str((payload as Loose<CodexSessionStart>).source) ?? null },
        },
        startsSession: true,
      });
    case 'UserPromptSubmit': {
      const prompt = str((payload as Loose<CodexUserPromptSubmit>).prompt);
      if (!prompt?.trim()) return skip('empty prompt');
      return hook({ kind: 'prompt', body: { type: 'text', content: prompt }, retrieve: true });
    }
    case 'PostToolUse':
      return (
        skipOwnTool(str(payload['tool_name'])) ??
        hook({ kind: 'tool_use', body: toolBody(payload) })
      );
    case 'Stop':
      return hook({
        kind: 'session_summary',
        body: summaryBody(str((payload as Loose<CodexStop>).last_assistant_message)),
      });
    case 'PreCompact':
      return hook({ kind: 'session_summary', body: summaryBody(undefined) });
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

/**
 * What a Codex hook prints: JSON, always (Codex parses a hook's stdout), with the context
 * as `hookSpecificOutput.additionalContext` for the hooks that add context.
 */
export function codexAnswer(hook: HookEvent | undefined, context: string | undefined): string {
  if (!hook || !context) return '{}\n';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: hook.hook, additionalContext: context } })}\n`;
}
