/**
 * Augment (Auggie CLI, and the Augment IDE extensions reading `~/.augment/settings.json`)
 * hook payloads: Claude-style `hooks` in `.augment/settings.local.json` (personal),
 * `.augment/settings.json` (shared) or `~/.augment/settings.json`; a hook's `command` is a
 * `.sh` file, its `timeout` in milliseconds (default 60000), as in
 * docs.augmentcode.com/cli/hooks. The conversation id is the session; the conversation's
 * text reaches `Stop` only when the hook's `metadata` asks for it. Types only.
 */

export interface AugmentBase {
  hook_event_name: string;
  conversation_id: string;
  workspace_roots: string[];
}

export interface AugmentPostToolUse extends AugmentBase {
  hook_event_name: 'PostToolUse';
  /** `launch-process`, `view`, `str-replace-editor`, `save-file`, `codebase-retrieval`, …; MCP tools `<tool>_<server>`. */
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_output?: string;
  /** Set when the tool failed. */
  tool_error?: string;
  is_mcp_tool?: boolean;
}

export interface AugmentStop extends AugmentBase {
  hook_event_name: 'Stop';
  agent_stop_cause?: string;
  /** With `metadata.includeConversationData`. */
  conversation?: { userPrompt?: string; agentTextResponse?: string; agentCodeResponse?: unknown };
}

export type AugmentPayload = AugmentBase | AugmentPostToolUse | AugmentStop;
