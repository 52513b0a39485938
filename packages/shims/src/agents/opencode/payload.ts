/**
 * OpenCode has no hook commands: it loads JavaScript plugins (`.opencode/plugins/*.js`,
 * `~/.config/opencode/plugins/`) that subscribe to its events (opencode.ai/docs/plugins).
 * kiro-learn's plugin (`plugin.ts`, written by init) turns the events it uses into these
 * payloads and runs the hook command with one on stdin, as every other agent's hooks run.
 * Types only.
 */

export interface OpenCodeBase {
  /** The plugin event: `session.created`, `chat.message`, `tool.execute.after`, `session.idle`, `session.error`, `session.compacted`. */
  hook_event_name: string;
  session_id: string;
  /** The plugin's `directory`. */
  cwd: string;
}

/** `chat.message`: the user's message (its text parts); the plugin adds the memory printed for it. */
export interface OpenCodeChatMessage extends OpenCodeBase {
  hook_event_name: 'chat.message';
  prompt: string;
}

/** `tool.execute.after`, with the arguments `tool.execute.before` saw. */
export interface OpenCodeToolExecuteAfter extends OpenCodeBase {
  hook_event_name: 'tool.execute.after';
  /** `bash`, `read`, `edit`, `write`, `grep`, `glob`, …, `<server>_<tool>` for MCP tools. */
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_response: {
    title?: string;
    output?: string;
    metadata?: { exit?: number } & Record<string, unknown>;
  };
}

export interface OpenCodeSessionError extends OpenCodeBase {
  hook_event_name: 'session.error';
  error: { name?: string; message?: string };
}

export type OpenCodePayload =
  | OpenCodeBase
  | OpenCodeChatMessage
  | OpenCodeToolExecuteAfter
  | OpenCodeSessionError;
