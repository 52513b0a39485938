import type { MapInput, MapResult } from '../../hook.js';
import { str } from '../../hook.js';
import { type ClaudeShapedHook, claudeShaped, on } from '../claude-shaped.js';
import { isCopilotPayload, mapCopilot } from '../copilot/map.js';
import { isCursorPayload, mapCursor } from '../cursor/map.js';
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
const mapClaudeCodeHooks = claudeShaped('claude-code', {
  SessionStart: on.sessionStart,
  UserPromptSubmit: on.prompt,
  PostToolUse: on.tool,
  PostToolUseFailure: on.toolFailure,
  Stop: stop,
  StopFailure: on.turnFailed,
  PreCompact: on.compaction,
  SessionEnd: on.turnBoundary,
});

/**
 * Claude Code's hook script. Other agents run Claude Code's hook files too: Cursor with
 * its third-party option on, VS Code agent mode and Copilot CLI (they read
 * `.claude/settings*.json`). Their payloads say who sent them, and are recorded as that
 * agent's, exactly as the agent's own kiro-learn hooks record them: the collector then
 * stores a turn seen by both once, never under two agent names.
 */
export function mapClaudeCode(input: Pick<MapInput, 'payload'>): MapResult {
  if (isCursorPayload(input.payload)) return mapCursor(input);
  if (isCopilotPayload(input.payload)) return mapCopilot(input);
  return mapClaudeCodeHooks(input);
}
