/**
 * Claude Code hook payloads (JSON on stdin), as documented and as seen in public bug
 * reports. Types only: the mapping reads every field as possibly missing (`Loose`).
 */

/** Fields every Claude Code hook payload carries. */
export interface ClaudeCodeBase {
  hook_event_name: string;
  session_id: string;
  /** The session's JSONL transcript; may lag behind the hook that names it. */
  transcript_path: string;
  cwd: string;
  permission_mode?: string;
}

export interface ClaudeCodeSessionStart extends ClaudeCodeBase {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear' | 'compact';
}

export interface ClaudeCodeUserPromptSubmit extends ClaudeCodeBase {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
}

export interface ClaudeCodePostToolUse extends ClaudeCodeBase {
  hook_event_name: 'PostToolUse';
  /** `Bash`, `Edit`, …, or `mcp__<server>__<tool>`. */
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_response: unknown;
  tool_use_id: string;
}

/** A failed tool call (a non-zero Bash exit, a failed edit): never sent to PostToolUse. */
export interface ClaudeCodePostToolUseFailure extends ClaudeCodeBase {
  hook_event_name: 'PostToolUseFailure';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  /** What went wrong; Bash failures start `Exit code N`. */
  error: string;
  is_interrupt: boolean;
}

/** The context is about to be compacted: what was said so far will be summarised away. */
export interface ClaudeCodePreCompact extends ClaudeCodeBase {
  hook_event_name: 'PreCompact';
  trigger: 'manual' | 'auto';
  custom_instructions: string;
}

export interface ClaudeCodeStop extends ClaudeCodeBase {
  hook_event_name: 'Stop' | 'SubagentStop';
  stop_hook_active: boolean;
  /** The turn's final answer; the transcript may not hold it yet when the hook runs. */
  last_assistant_message?: string;
  agent_id?: string;
  agent_transcript_path?: string;
}

/**
 * The turn ended on an API error instead of an answer (Claude Code ≥ 2.1.78). Has been
 * seen firing for a helper request's failure too, on the parent session.
 */
export interface ClaudeCodeStopFailure extends ClaudeCodeBase {
  hook_event_name: 'StopFailure';
  /** `rate_limit`, `authentication_failed`, `billing_error`, `invalid_request`, `server_error`, `max_output_tokens`, `unknown`. */
  error: string;
  error_details?: string;
  /** The error text the user was shown. */
  last_assistant_message?: string;
}

export interface ClaudeCodeSessionEnd extends ClaudeCodeBase {
  hook_event_name: 'SessionEnd';
  reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other' | string;
}

export type ClaudeCodePayload =
  | ClaudeCodeSessionStart
  | ClaudeCodeUserPromptSubmit
  | ClaudeCodePostToolUse
  | ClaudeCodePostToolUseFailure
  | ClaudeCodePreCompact
  | ClaudeCodeStop
  | ClaudeCodeStopFailure
  | ClaudeCodeSessionEnd;

/** One line of the JSONL transcript, as far as the Stop fallback reads it. */
export interface ClaudeCodeTranscriptLine {
  type: 'user' | 'assistant' | 'system' | string;
  /** A sub-agent's line: not the main agent's answer. */
  isSidechain?: boolean;
  message?: {
    role: string;
    content: string | Array<{ type: string; text?: string }>;
  };
}
