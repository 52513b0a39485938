/**
 * Codex CLI hook payloads (JSON on stdin; `.codex/hooks.json`, `~/.codex/hooks.json`), as
 * in the hook input schemas Codex publishes (codex-rs/hooks/schema). Close to Claude
 * Code's, plus `turn_id` and `model`. Types only.
 */

export interface CodexBase {
  hook_event_name: string;
  session_id: string;
  /** The active turn. */
  turn_id: string;
  /** May be null. */
  transcript_path: string | null;
  cwd: string;
  model: string;
  permission_mode: 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions';
}

export interface CodexSessionStart extends CodexBase {
  hook_event_name: 'SessionStart';
  source: 'startup' | 'resume' | 'clear';
}

export interface CodexUserPromptSubmit extends CodexBase {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
}

export interface CodexPostToolUse extends CodexBase {
  hook_event_name: 'PostToolUse';
  /** `Bash`, `apply_patch` (the patch in `tool_input.command`), `mcp__<server>__<tool>`. */
  tool_name: string;
  tool_input: unknown;
  tool_response: unknown;
  tool_use_id: string;
}

export interface CodexPreCompact extends CodexBase {
  hook_event_name: 'PreCompact';
  trigger?: 'manual' | 'auto';
}

export interface CodexStop extends CodexBase {
  hook_event_name: 'Stop';
  stop_hook_active: boolean;
  /** The turn's final answer (may be null). */
  last_assistant_message: string | null;
}

export type CodexPayload =
  | CodexSessionStart
  | CodexUserPromptSubmit
  | CodexPostToolUse
  | CodexPreCompact
  | CodexStop;
