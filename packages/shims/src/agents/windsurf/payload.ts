/**
 * Windsurf Cascade hook payloads (`.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`:
 * `{"hooks": {<action>: [{command, show_output}]}}`), as in
 * docs.windsurf.com/windsurf/cascade/hooks: one envelope for every action, the action's
 * details in `tool_info`, the trajectory (Cascade's conversation) as the session. Cascade
 * reads no context from hooks: capture only. Types only.
 */

export interface WindsurfBase {
  agent_action_name: string;
  trajectory_id: string;
  execution_id: string;
  timestamp: string;
  tool_info: Record<string, unknown>;
}

export interface WindsurfPreUserPrompt extends WindsurfBase {
  agent_action_name: 'pre_user_prompt';
  tool_info: { user_prompt: string };
}

export interface WindsurfPostRunCommand extends WindsurfBase {
  agent_action_name: 'post_run_command';
  tool_info: { command_line: string; cwd: string };
}

export interface WindsurfPostReadCode extends WindsurfBase {
  agent_action_name: 'post_read_code';
  tool_info: { file_path: string };
}

export interface WindsurfPostWriteCode extends WindsurfBase {
  agent_action_name: 'post_write_code';
  tool_info: { file_path: string; edits: { old_string: string; new_string: string }[] };
}

export interface WindsurfPostMcpToolUse extends WindsurfBase {
  agent_action_name: 'post_mcp_tool_use';
  tool_info: {
    mcp_server_name: string;
    mcp_tool_name: string;
    mcp_tool_arguments: Record<string, unknown>;
    mcp_result: unknown;
  };
}

export interface WindsurfPostCascadeResponse extends WindsurfBase {
  agent_action_name: 'post_cascade_response';
  tool_info: { response: string };
}

export type WindsurfPayload =
  | WindsurfPreUserPrompt
  | WindsurfPostRunCommand
  | WindsurfPostReadCode
  | WindsurfPostWriteCode
  | WindsurfPostMcpToolUse
  | WindsurfPostCascadeResponse;
