/**
 * Kiro hook payloads (JSON on stdin). Two configurations share one script: agent-config
 * hooks of Kiro CLI (`.kiro/agents/<name>.json`, camelCase names, no session id) and v1
 * workspace hooks of Kiro IDE ≥ 1.0 and Kiro CLI v3 (`.kiro/hooks/<name>.json`,
 * PascalCase names, `session_id`). Types only.
 */

export interface KiroBase {
  /** `agentSpawn`, `userPromptSubmit`, `postToolUse`, `stop`, or PascalCase v1 names. */
  hook_event_name: string;
  cwd: string;
  /** v1 workspace hooks only. */
  session_id?: string;
}

export interface KiroPrompt extends KiroBase {
  prompt: string;
}

export interface KiroPostToolUse extends KiroBase {
  /** `execute_bash`, `fs_write`, … (Kiro CLI), `executeBash` (IDE), `@<server>/<tool>` (MCP). */
  tool_name: string;
  /** Kiro IDE 1.x has been seen sending `{}`. */
  tool_input: Record<string, unknown>;
  /**
   * Kiro CLI: `{success, result: [...]}`. Kiro IDE 1.x: one string ending in
   * `Exit Code: N` for commands, `""` for empty sub-agent shells.
   */
  tool_response: { success?: boolean; result?: unknown } | string;
  /** Kiro IDE 1.x `subagent_*` tools. */
  subagent_response?: string;
}

export interface KiroStop extends KiroBase {
  /** Often missing (Kiro CLI), never sent by Kiro CLI v3. */
  assistant_response?: string;
}

export type KiroPayload = KiroBase | KiroPrompt | KiroPostToolUse | KiroStop;
