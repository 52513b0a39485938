/**
 * Cursor agent hook payloads (JSON on stdin; `.cursor/hooks.json`, `~/.cursor/hooks.json`,
 * `{"version": 1, "hooks": {<event>: [{command}]}}`), as in Cursor's hooks documentation.
 * camelCase event names; the conversation id is the session. Types only.
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

export type CursorPayload =
  | CursorSessionStart
  | CursorBeforeSubmitPrompt
  | CursorAfterShellExecution
  | CursorAfterFileEdit
  | CursorAfterMCPExecution
  | CursorAfterAgentResponse
  | CursorStop;
