import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { hooksOf, namedFrame, noHookName } from '../shared.js';
import type { CodexSessionStart, CodexStop, CodexUserPromptSubmit } from './payload.js';

/** Codex CLI hooks: Claude Code's shape; Stop carries `last_assistant_message`. */
export function mapCodex({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const frame = namedFrame('codex', payload);
  if (!frame) return noHookName();
  const h = hooksOf(frame);
  switch (frame.name) {
    case 'SessionStart':
      return h.sessionStart({ source: str((payload as Loose<CodexSessionStart>).source) ?? null });
    case 'UserPromptSubmit':
      return h.prompt(str((payload as Loose<CodexUserPromptSubmit>).prompt));
    case 'PostToolUse':
      return h.tool(payload);
    case 'Stop':
      return h.turnEnd(str((payload as Loose<CodexStop>).last_assistant_message));
    case 'PreCompact':
      return h.turnEnd(undefined);
    default:
      return skip(`hook ${frame.name} is not recorded`);
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
