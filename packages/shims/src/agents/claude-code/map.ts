import { str } from '../../hook.js';
import { type ClaudeShapedHook, claudeShaped, on } from '../claude-shaped.js';
import { lastAssistantText } from './transcript.js';

/**
 * Claude Code's `Stop`: the answer from `last_assistant_message`, the transcript only
 * when that is missing (the transcript is often not yet written when `Stop` fires).
 */
const stop: ClaudeShapedHook = (h, payload) => {
  const message = str(payload['last_assistant_message']);
  const path = str(payload['transcript_path']);
  return h.turnEnd(message?.trim() ? message : path ? lastAssistantText(path) : undefined);
};

/**
 * Claude Code hooks (`.claude/settings.local.json`, `~/.claude/settings.json`, the
 * plugin). The format the other Claude-shaped agents copy, with its own `Stop` (the
 * transcript fallback), and failures of tools and of whole turns as hooks of their own.
 */
export const mapClaudeCode = claudeShaped('claude-code', {
  SessionStart: on.sessionStart,
  UserPromptSubmit: on.prompt,
  PostToolUse: on.tool,
  PostToolUseFailure: on.toolFailure,
  Stop: stop,
  StopFailure: on.turnFailed,
  PreCompact: on.turnBoundary,
  SessionEnd: on.turnBoundary,
});
