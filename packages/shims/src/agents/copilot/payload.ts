/**
 * GitHub Copilot hook payloads: Copilot CLI (and the cloud agent) and VS Code agent mode
 * share `.github/hooks/*.json` (`{"version": 1, "hooks": {<Event>: [{type, command,
 * timeout}]}}`). Configured with PascalCase event names, Copilot CLI sends its "VS Code
 * compatible" payloads (docs.github.com/copilot/reference/hooks-reference): snake_case,
 * `hook_event_name`, `session_id`, an ISO `timestamp`. VS Code's own (Local) harness sends
 * the same event fields with camelCase common ones: `hookEventName`, `sessionId`
 * (code.visualstudio.com/docs/agent-customization/hooks). Types only.
 */

export interface CopilotBase {
  /** Copilot CLI. */
  hook_event_name?: string;
  session_id?: string;
  /** VS Code agent mode. */
  hookEventName?: string;
  sessionId?: string;
  /** ISO 8601. */
  timestamp: string;
  cwd: string;
  transcript_path?: string;
}

export interface CopilotSessionStart extends CopilotBase {
  source: 'startup' | 'resume' | 'new';
  initial_prompt?: string;
}

export interface CopilotUserPromptSubmit extends CopilotBase {
  prompt: string;
}

export interface CopilotPostToolUse extends CopilotBase {
  /** Copilot CLI: `bash`, `view`, `edit`, `grep`, …; VS Code: `runInTerminal`, `editFiles`, … */
  tool_name: string;
  tool_input: unknown;
  /** Copilot CLI. */
  tool_result?: {
    result_type: 'success' | 'failure' | 'denied' | 'error';
    text_result_for_llm: string;
  };
  /** VS Code. */
  tool_response?: unknown;
  tool_use_id?: string;
}

export interface CopilotPostToolUseFailure extends CopilotBase {
  tool_name: string;
  tool_input: unknown;
  error: string;
}

export interface CopilotErrorOccurred extends CopilotBase {
  error: { message: string; name: string; stack?: string };
  error_context: 'model_call' | 'tool_execution' | 'system' | 'user_input';
  recoverable: boolean;
}

export interface CopilotStop extends CopilotBase {
  stop_reason?: 'end_turn';
  stop_hook_active: boolean;
}

export interface CopilotSessionEnd extends CopilotBase {
  reason: 'complete' | 'error' | 'abort' | 'timeout' | 'user_exit';
}

export interface CopilotPreCompact extends CopilotBase {
  trigger: 'manual' | 'auto';
}

export type CopilotPayload =
  | CopilotSessionStart
  | CopilotUserPromptSubmit
  | CopilotPostToolUse
  | CopilotPostToolUseFailure
  | CopilotErrorOccurred
  | CopilotStop
  | CopilotSessionEnd
  | CopilotPreCompact;
