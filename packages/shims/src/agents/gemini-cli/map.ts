import { type ClaudeShapedHook, claudeShaped, on } from '../claude-shaped.js';

/** `AfterTool`: a failed tool carries `tool_response.error`, said the way extractors read failures. */
const afterTool: ClaudeShapedHook = (h, payload) => {
  const response = payload['tool_response'];
  const error =
    response !== null && typeof response === 'object'
      ? (response as { error?: unknown }).error
      : undefined;
  return h.tool(
    payload,
    error !== undefined && error !== null ? { ...(response as object), success: false } : response,
  );
};

/**
 * Gemini CLI hooks: Claude Code's shape under its own names. `BeforeAgent` is the prompt,
 * `AfterAgent` ends the turn with its answer (`prompt_response`).
 */
export const mapGemini = claudeShaped('gemini-cli', {
  SessionStart: on.sessionStart,
  BeforeAgent: on.prompt,
  AfterTool: afterTool,
  AfterAgent: on.answerIn('prompt_response'),
  PreCompress: on.compaction,
  SessionEnd: on.turnBoundary,
});
