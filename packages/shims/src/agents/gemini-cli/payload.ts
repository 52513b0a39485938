/**
 * Gemini CLI hook payloads (JSON on stdin; `hooks` in `.gemini/settings.json` or
 * `~/.gemini/settings.json`), as in Gemini CLI's hooks reference. Its stdout must be JSON
 * only. Types only.
 */

export interface GeminiBase {
  hook_event_name: string;
  session_id: string;
  transcript_path: string;
  cwd: string;
  /** ISO 8601. */
  timestamp: string;
}

export interface GeminiSessionStart extends GeminiBase {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear';
}

/** After the user submits a prompt, before the agent plans. */
export interface GeminiBeforeAgent extends GeminiBase {
  hook_event_name: 'BeforeAgent';
  prompt: string;
}

export interface GeminiAfterTool extends GeminiBase {
  hook_event_name: 'AfterTool';
  /** `run_shell_command`, `read_file`, `replace`, …, `mcp__<server>__<tool>`. */
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_response: { llmContent?: unknown; returnDisplay?: unknown; error?: unknown };
  mcp_context?: Record<string, unknown>;
}

/** Once per turn, after the final answer. */
export interface GeminiAfterAgent extends GeminiBase {
  hook_event_name: 'AfterAgent';
  prompt: string;
  prompt_response: string;
  stop_hook_active: boolean;
}

export interface GeminiPreCompress extends GeminiBase {
  hook_event_name: 'PreCompress';
  trigger: 'auto' | 'manual';
}

export interface GeminiSessionEnd extends GeminiBase {
  hook_event_name: 'SessionEnd';
  reason: 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other';
}

export type GeminiPayload =
  | GeminiSessionStart
  | GeminiBeforeAgent
  | GeminiAfterTool
  | GeminiAfterAgent
  | GeminiPreCompress
  | GeminiSessionEnd;
