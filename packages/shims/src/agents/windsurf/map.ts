import { type MapInput, type MapResult, type Payload, str } from '../../hook.js';
import { type ClaudeShapedHook, dispatch } from '../claude-shaped.js';
import { noHookName } from '../shared.js';

const info = (p: Payload): Record<string, unknown> =>
  p['tool_info'] && typeof p['tool_info'] === 'object'
    ? (p['tool_info'] as Record<string, unknown>)
    : {};

/** A Cascade action as a tool use with `tool_name` / `tool_input` / `tool_response`. */
const action =
  (
    toolName: string,
    input: (i: Record<string, unknown>) => unknown,
    response?: (i: Record<string, unknown>) => unknown,
  ): ClaudeShapedHook =>
  (h, p) =>
    h.tool(
      { tool_name: toolName, tool_input: input(info(p)) },
      response ? response(info(p)) : null,
    );

/**
 * Cascade's actions. It reports commands without their output or exit code, so a failed
 * command is remembered only through what the agent said about it.
 */
const WINDSURF_HOOKS = {
  // Cascade adds nothing a hook prints to the conversation: memory reaches it through MCP.
  pre_user_prompt: ((h, p) =>
    h.prompt(str(info(p)['user_prompt']), false)) satisfies ClaudeShapedHook,
  post_read_code: action('read_code', (i) => ({ file_path: i['file_path'] ?? null })),
  post_write_code: action('write_code', (i) => ({
    file_path: i['file_path'] ?? null,
    edits: i['edits'] ?? [],
  })),
  post_run_command: action('run_command', (i) => ({ command: i['command_line'] ?? null })),
  post_mcp_tool_use: ((h, p) => {
    const i = info(p);
    return action(
      `mcp__${str(i['mcp_server_name']) ?? 'mcp'}__${str(i['mcp_tool_name']) ?? 'tool'}`,
      () => i['mcp_tool_arguments'] ?? null,
      () => i['mcp_result'] ?? null,
    )(h, p);
  }) satisfies ClaudeShapedHook,
  post_cascade_response: ((h, p) => h.turnEnd(str(info(p)['response']))) satisfies ClaudeShapedHook,
};

/** Windsurf Cascade hooks: `agent_action_name` names the hook, the trajectory is the session. */
export function mapWindsurf({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const name = str(payload['agent_action_name']);
  if (!name) return noHookName();
  return dispatch(
    {
      surface: 'windsurf',
      name,
      cwd: str(info(payload)['cwd']) ?? str(payload['cwd']),
      sessionId: str(payload['trajectory_id']),
    },
    WINDSURF_HOOKS,
    payload,
  );
}
