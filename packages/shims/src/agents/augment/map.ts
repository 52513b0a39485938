import { type MapInput, type MapResult, str } from '../../hook.js';
import { type ClaudeShapedHook, dispatch, on } from '../claude-shaped.js';
import { conversationFrame, exitCodeIn, noHookName } from '../shared.js';

/** `tool_error` marks a failure, said the way the extractors read failures. */
const postToolUse: ClaudeShapedHook = (h, p) => {
  const error = str(p['tool_error']);
  if (!error) return h.tool(p, p['tool_output'] ?? p['tool_response'] ?? null);
  const exitCode = exitCodeIn(error);
  return h.tool(p, {
    success: false,
    error,
    ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
    ...(p['tool_output'] !== undefined ? { output: p['tool_output'] } : {}),
  });
};

/** `Stop` carries the answer in its conversation data (when the hook asked for it). */
const stop: ClaudeShapedHook = (h, p) => {
  const conversation = (p['conversation'] ?? {}) as Record<string, unknown>;
  return h.turnEnd(str(conversation['agentTextResponse']));
};

const AUGMENT_HOOKS = {
  SessionStart: on.sessionStart,
  UserPromptSubmit: on.prompt,
  PostToolUse: postToolUse,
  Stop: stop,
  SessionEnd: on.turnBoundary,
};

/** Augment hooks: Claude-shaped, the conversation the session, the first workspace root the project. */
export function mapAugment({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const frame = conversationFrame('augment', payload);
  return frame ? dispatch(frame, AUGMENT_HOOKS, payload) : noHookName();
}
