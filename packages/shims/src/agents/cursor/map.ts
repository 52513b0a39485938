import { type HookEvent, type MapInput, type MapResult, type Payload, str } from '../../hook.js';
import { type ClaudeShapedHook, dispatch, on } from '../claude-shaped.js';
import { conversationFrame, exitCodeIn, isOwnMcpTool, noHookName, skipOwnTool } from '../shared.js';

/** kiro-learn's own tools under their bare names, as Cursor reports MCP tools. */
const OWN_BARE =
  /^(?:MCP[:_])?(?:search_memory|get_memories|timeline|get_event|save_session_summary|save_observation|forget_memory)$/;

/** A tool use as every other agent's: `{tool_name, tool_input, tool_response}`. */
const toolUse =
  (tool_name: string, tool_input: unknown, tool_response: unknown): ClaudeShapedHook =>
  (h) =>
    h.hook({
      kind: 'tool_use',
      body: { type: 'json', data: { tool_name, tool_input, tool_response } },
    });

/**
 * `postToolUse` names an MCP tool without its server: a tool of kiro-learn's name is
 * taken for kiro-learn's (its results are memory the agent was just shown).
 */
function ownTool(name: string): boolean {
  return isOwnMcpTool(name) || OWN_BARE.test(name);
}

const postToolUse: ClaudeShapedHook = (h, p) => {
  const name = str(p['tool_name']) ?? 'unknown';
  if (ownTool(name)) return skipOwnTool(`@kiro-learn/${name.replace(/^MCP[:_]/, '')}`)!;
  return toolUse(name, parseJson(p['tool_input']), withExitCode(parseJson(p['tool_output'])))(h, p);
};

/** A failed, timed-out or denied tool: said the way the extractors read failures. */
const postToolUseFailure: ClaudeShapedHook = (h, p) => {
  const name = str(p['tool_name']) ?? 'unknown';
  if (ownTool(name)) return skipOwnTool(`@kiro-learn/${name.replace(/^MCP[:_]/, '')}`)!;
  const error = str(p['error_message']) ?? str(p['error']) ?? 'the tool failed';
  const exitCode = exitCodeIn(error) ?? /\bexit(?:ed with)? code[:\s]+(-?\d+)/i.exec(error)?.[1];
  return toolUse(name, parseJson(p['tool_input']), {
    success: false,
    error,
    ...(str(p['failure_type']) ? { failure_type: str(p['failure_type']) } : {}),
    ...(exitCode !== undefined ? { exit_code: Number(exitCode) } : {}),
    ...(p['is_interrupt'] === true ? { interrupted: true } : {}),
  })(h, p);
};

/** Older Cursor reports shell commands in their own hook, the output without an exit code. */
const afterShellExecution: ClaudeShapedHook = (h, p) =>
  toolUse('Shell', { command: str(p['command']) ?? null }, withExitCode(p['output'] ?? null))(h, p);

const afterFileEdit: ClaudeShapedHook = (h, p) =>
  toolUse('Edit', { file_path: str(p['file_path']) ?? null, edits: p['edits'] ?? [] }, null)(h, p);

const afterMCPExecution: ClaudeShapedHook = (h, p) => {
  const toolName = str(p['tool_name']);
  const server = `${str(p['command']) ?? ''} ${str(p['url']) ?? ''} ${str(p['mcp_server_name']) ?? ''}`;
  if (isOwnMcpTool(toolName) || (toolName && OWN_BARE.test(toolName) && /kiro-learn/.test(server)))
    return skipOwnTool(`@kiro-learn/${toolName}`)!;
  return toolUse(toolName ?? 'mcp', parseJson(p['tool_input']), parseJson(p['result_json']))(h, p);
};

/**
 * `stop` ends every loop: `afterAgentResponse` already ended a completed turn with its
 * answer; an aborted turn ends here, a failed one ends as failed.
 */
const stop: ClaudeShapedHook = (h, p) => {
  const status = str(p['status']);
  if (status === 'error') return h.turnFailed('error', undefined);
  if (status === 'aborted') return h.turnEnd(undefined);
  return { skip: 'afterAgentResponse ended the turn', warn: false };
};

const sessionEnd: ClaudeShapedHook = (h, p) =>
  str(p['reason']) === 'error'
    ? h.turnFailed('error', str(p['error_message']))
    : h.turnEnd(undefined);

/**
 * Cursor's agent hooks. Every tool reports through `postToolUse` / `postToolUseFailure`
 * (shell commands, reads, searches, edits, MCP tools); the per-kind hooks of older
 * releases (`afterShellExecution`, `afterFileEdit`, `afterMCPExecution`) still map, for
 * configurations an earlier init wrote. `afterAgentResponse` carries the answer.
 */
const CURSOR_HOOKS = {
  sessionStart: on.sessionStart,
  // Cursor takes no context from this hook: memory reaches it at session start and through MCP.
  beforeSubmitPrompt: ((h, p) => h.prompt(str(p['prompt']), false)) satisfies ClaudeShapedHook,
  postToolUse,
  postToolUseFailure,
  afterShellExecution,
  afterFileEdit,
  afterMCPExecution,
  afterAgentResponse: on.answerIn('text'),
  stop,
  preCompact: on.compaction,
  sessionEnd,
};

/**
 * Cursor agent hooks: the conversation id is the session, the first workspace root the
 * project when the payload's `cwd` is missing or empty (as in the payloads Cursor sends to
 * Claude Code hooks).
 */
export function mapCursor({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const frame = conversationFrame('cursor', payload);
  return frame ? dispatch(frame, CURSOR_HOOKS, payload) : noHookName();
}

/** True for a payload Cursor sent (to its own hooks, or to Claude Code's). */
export function isCursorPayload(payload: Payload): boolean {
  return str(payload['cursor_version']) !== undefined;
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `Exit code: 1` ending a command's output, as some shells and agents print it. */
function trailingExitCode(text: string): number | undefined {
  const match = /(?:^|\n)[ \t]*(?:exit code|exit status|exited with code)[:\s]+(-?\d+)\s*$/i.exec(
    text,
  );
  return match ? Number(match[1]) : undefined;
}

/**
 * A command result with its exit code where Cursor gives one (`exitCode` in the result
 * JSON) or where it is all there is (the output ending in `Exit code: N`): a non-zero code
 * is a failure the extractors remember.
 */
function withExitCode(result: unknown): unknown {
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    const r = result as Record<string, unknown>;
    const code = r['exitCode'] ?? r['exit_code'];
    return typeof code === 'number' ? { ...r, exit_code: code, success: code === 0 } : result;
  }
  if (typeof result === 'string') {
    const code = trailingExitCode(result);
    return code === undefined ? result : { output: result, exit_code: code, success: code === 0 };
  }
  return result;
}

/**
 * What a Cursor hook prints: `beforeSubmitPrompt` answers `{"continue": true}`;
 * `sessionStart` gives memory as `additional_context`; others print nothing.
 */
export function cursorAnswer(
  hook: HookEvent | undefined,
  context: string | undefined,
): string | undefined {
  if (hook?.hook === 'beforeSubmitPrompt') return '{"continue":true}\n';
  if (hook?.hook === 'sessionStart' && context)
    return `${JSON.stringify({ additional_context: context })}\n`;
  return undefined;
}
