import { claudeShaped, on } from '../claude-shaped.js';

/**
 * Codex CLI hooks: Claude Code's shape. `Stop` carries the answer in
 * `last_assistant_message` (possibly null); Codex has no failure hooks, so a failed
 * command arrives in `PostToolUse` with its output.
 */
export const mapCodex = claudeShaped('codex', {
  SessionStart: on.sessionStart,
  UserPromptSubmit: on.prompt,
  PostToolUse: on.tool,
  PreCompact: on.compaction,
  Stop: on.answerIn('last_assistant_message'),
});
