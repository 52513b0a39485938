import { type HookEvent, type MapInput, type MapResult, type Payload, str } from '../../hook.js';
import { additionalContextAnswer, type ClaudeShapedHook, dispatch, on } from '../claude-shaped.js';
import { noHookName } from '../shared.js';

/** Copilot CLI's `tool_result`, said the way the extractors read outcomes; VS Code's `tool_response` as sent. */
const postToolUse: ClaudeShapedHook = (h, p) => {
  const result = p['tool_result'];
  if (!result || typeof result !== 'object') return h.tool(p);
  const r = result as Record<string, unknown>;
  const type = str(r['result_type']) ?? str(r['resultType']);
  const text = str(r['text_result_for_llm']) ?? str(r['textResultForLlm']) ?? '';
  return h.tool(p, {
    success: type === undefined || type === 'success',
    output: text,
    ...(type ? { result_type: type } : {}),
  });
};

/** An error the agent did not recover from ends the turn as failed; a recovered one is noise. */
const errorOccurred: ClaudeShapedHook = (h, p) => {
  if (p['recoverable'] === true) return { skip: 'a recoverable error', warn: false };
  const error = (p['error'] ?? {}) as Record<string, unknown>;
  return h.turnFailed(
    str(p['error_context']) ?? str(error['name']),
    str(error['message']) ?? str(p['error']),
  );
};

const sessionEnd: ClaudeShapedHook = (h, p) => {
  const reason = str(p['reason']);
  return reason === 'error' || reason === 'timeout'
    ? h.turnFailed(reason, undefined)
    : h.turnEnd(undefined);
};

/**
 * Copilot's hooks, as configured in `.github/hooks/kiro-learn.json` (PascalCase names).
 * Neither agent adds a prompt hook's output to the conversation (Copilot CLI drops it, VS
 * Code reads only `continue`/`stopReason`): memory reaches them at session start and
 * through the MCP tools. `Stop` carries no answer: the turn is rebuilt from its events.
 */
const COPILOT_HOOKS = {
  SessionStart: on.sessionStart,
  UserPromptSubmit: ((h, p) => h.prompt(str(p['prompt']), false)) satisfies ClaudeShapedHook,
  PostToolUse: postToolUse,
  PostToolUseFailure: on.toolFailure,
  ErrorOccurred: errorOccurred,
  PreCompact: on.compaction,
  Stop: on.turnBoundary,
  SessionEnd: sessionEnd,
};

/**
 * Copilot CLI and VS Code agent mode run the same hook file; the payload tells them apart:
 * VS Code's own harness sends `hookEventName`/`sessionId`, Copilot CLI `hook_event_name`
 * /`session_id`.
 */
export function mapCopilot({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const vscode = str(payload['hookEventName']) !== undefined;
  const name = str(payload['hook_event_name']) ?? str(payload['hookEventName']);
  if (!name) return noHookName();
  return dispatch(
    {
      surface: vscode ? 'vscode' : 'copilot-cli',
      name,
      cwd: str(payload['cwd']),
      sessionId: str(payload['session_id']) ?? str(payload['sessionId']),
    },
    COPILOT_HOOKS,
    payload,
  );
}

/**
 * True for a Claude-shaped payload from Copilot CLI or VS Code (both also run Claude
 * Code's hook files): Claude Code's own payloads carry no `timestamp`.
 */
export function isCopilotPayload(payload: Payload): boolean {
  return str(payload['hookEventName']) !== undefined || str(payload['timestamp']) !== undefined;
}

/**
 * What the hook prints: memory at session start, in each agent's shape (VS Code reads
 * `hookSpecificOutput.additionalContext`, Copilot CLI `additionalContext`); nothing else.
 */
export function copilotAnswer(
  hook: HookEvent | undefined,
  context: string | undefined,
): string | undefined {
  if (!hook?.startsSession || !context) return undefined;
  return hook.surface === 'vscode'
    ? additionalContextAnswer(hook, context)
    : `${JSON.stringify({ additionalContext: context })}\n`;
}
