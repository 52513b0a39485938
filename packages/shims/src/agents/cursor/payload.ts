/**
 * Cursor agent hook payloads (JSON on stdin; `.cursor/hooks.json`, `~/.cursor/hooks.json`,
 * `{"version": 1, "hooks": {<event>: [{command, timeout}]}}`), as in Cursor's hooks
 * documentation (cursor.com/docs/agent/hooks). camelCase event names; the conversation id
 * is the session. cursor-agent has been seen prefixing the JSON with a UTF-8 BOM. With
 * "third-party configs" on, Cursor also runs Claude Code's hooks with these same payloads
 * (`cursor_version` tells them apart). Types only.
 */

export interface CursorBase {
  hook_event_name: string;
  conversation_id: string;
  generation_id: string;
  model: string;
  cursor_version: string;
  /** The open workspace folders: the first is the project. */
  workspace_roots: string[];
  user_email: string | null;
  transcript_path: string | null;
}

export interface CursorSessionStart extends CursorBase {
  hook_event_name: 'sessionStart';
  session_id: string;
  is_background_agent: boolean;
  composer_mode: string;
}

export interface CursorBeforeSubmitPrompt extends CursorBase {
  hook_event_name: 'beforeSubmitPrompt';
  prompt: string;
  attachments: { type: string; file_path: string }[];
}

export interface CursorAfterShellExecution extends CursorBase {
  hook_event_name: 'afterShellExecution';
  command: string;
  output: string;
  /** Milliseconds. */
  duration: number;
  cwd?: string;
}

export interface CursorAfterFileEdit extends CursorBase {
  hook_event_name: 'afterFileEdit';
  file_path: string;
  edits: { old_string: string; new_string: string }[];
}

export interface CursorAfterMCPExecution extends CursorBase {
  hook_event_name: 'afterMCPExecution';
  /** The tool's own name, without its server's. */
  tool_name: string;
  /** JSON text of the arguments. */
  tool_input: string;
  /** JSON text of the result. */
  result_json: string;
  duration: number;
  /** The server: its command (stdio) or URL. */
  command?: string;
  url?: string;
}

/** The agent's answer, once per turn. */
export interface CursorAfterAgentResponse extends CursorBase {
  hook_event_name: 'afterAgentResponse';
  text: string;
}

export interface CursorStop extends CursorBase {
  hook_event_name: 'stop';
  status: 'completed' | 'aborted' | 'error';
  loop_count: number;
}

/** Every tool, after it succeeded: shell commands, reads, searches, edits, MCP tools. */
export interface CursorPostToolUse extends CursorBase {
  hook_event_name: 'postToolUse';
  /** `Shell`, `Read`, `Grep`, `Glob`, `Write`, `StrReplace`, …; an MCP tool by its own name. */
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** JSON text of the result (a shell command's carries its exit code). */
  tool_output: string;
  tool_use_id: string;
  /** Milliseconds. */
  duration: number;
  cwd: string;
}

/** A tool that failed, timed out or was denied. */
export interface CursorPostToolUseFailure extends CursorBase {
  hook_event_name: 'postToolUseFailure';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  error_message: string;
  failure_type: 'error' | 'timeout' | 'permission_denied';
  is_interrupt?: boolean;
  duration: number;
  cwd: string;
}

/** The context window is about to be compacted. */
export interface CursorPreCompact extends CursorBase {
  hook_event_name: 'preCompact';
  trigger: 'auto' | 'manual';
  context_usage_percent: number;
}

export interface CursorSessionEnd extends CursorBase {
  hook_event_name: 'sessionEnd';
  session_id: string;
  reason: 'completed' | 'aborted' | 'error' | 'window_close' | 'user_close';
  error_message?: string;
  duration_ms: number;
}

export type CursorPayload =
  | CursorSessionStart
  | CursorBeforeSubmitPrompt
  | CursorAfterShellExecution
  | CursorAfterFileEdit
  | CursorAfterMCPExecution
  | CursorAfterAgentResponse
  | CursorPostToolUse
  | CursorPostToolUseFailure
  | CursorPreCompact
  | CursorStop
  | CursorSessionEnd;
