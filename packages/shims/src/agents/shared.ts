import type { Surface } from '@kiro-learn/schema';
import { type HookEvent, type MapResult, type Payload, skip, str } from '../hook.js';

/**
 * The kiro-learn MCP server's tools. Their results are memory the agent was just shown:
 * recording them as observations would extract the same memory again as echo records.
 */
const OWN_TOOLS =
  'search_memory|get_memories|timeline|get_event|save_session_summary|save_observation|forget_memory';

/**
 * Tool names of the kiro-learn MCP server, in every agent's naming scheme: Claude Code and
 * Codex `mcp__kiro-learn__search_memory`, Kiro CLI `@kiro-learn/search_memory`, Gemini CLI
 * `mcp_kiro-learn_search_memory` or `kiro-learn__search_memory`, and the `kiro_learn`
 * spellings of agents that normalise dashes.
 */
const OWN_TOOL = new RegExp(`(?:^|[^A-Za-z0-9])kiro[-_]learn(?:__|[_/.:])(?:${OWN_TOOLS})$`, 'i');

/** True for a call of one of kiro-learn's own MCP tools. */
export function isOwnMcpTool(toolName: string | undefined): boolean {
  return toolName !== undefined && OWN_TOOL.test(toolName);
}

/** The skip for a call of kiro-learn's own MCP tools, or undefined for any other tool. */
export function skipOwnTool(toolName: string | undefined): MapResult | undefined {
  return isOwnMcpTool(toolName) ? skip(`${toolName} is kiro-learn's own memory tool`) : undefined;
}

/** `{tool_name, tool_input, tool_response}` from a payload that uses those field names. */
export function toolBody(
  payload: Payload,
  response: unknown = payload['tool_response'],
): HookEvent['body'] {
  return {
    type: 'json',
    data: {
      tool_name: str(payload['tool_name']) ?? 'unknown',
      tool_input: payload['tool_input'] ?? null,
      tool_response: response ?? null,
    },
  };
}

/** The assistant's text where the agent gives it; empty otherwise, rebuilt downstream. */
export function summaryBody(text: string | undefined): HookEvent['body'] {
  return text?.trim()
    ? { type: 'message', turns: [{ role: 'assistant', content: text }] }
    : { type: 'text', content: '' };
}

/**
 * The body of a turn that ended on an error instead of an answer: the agent's category
 * (`rate_limit`, `server_error`, …) and what it says about it.
 */
export function failedTurnBody(
  category: string | undefined,
  detail: string | undefined,
): HookEvent['body'] {
  const content = `The turn failed${category ? ` (${category})` : ''}${detail ? `: ${detail}` : ''}.`;
  return { type: 'message', turns: [{ role: 'error', content }] };
}

/** The leading `Exit code N` some agents put in a failed command's error text. */
export function exitCodeIn(text: string): number | undefined {
  const match = /^\s*exit(?: code|_code| status)[:\s]+(-?\d+)\b/i.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Who fired a hook: the agent, its name for the hook, and where and in which session. */
export interface HookFrame {
  surface: Surface;
  /** The agent's own name for the hook. */
  name: string;
  cwd?: string | undefined;
  sessionId?: string | undefined;
}

/**
 * The frame of the agents that copy Claude Code's payload shape (`hook_event_name`, `cwd`,
 * `session_id`: Claude Code, Codex, Gemini CLI, Kiro); undefined without a hook name.
 */
export function namedFrame(surface: Surface, payload: Payload): HookFrame | undefined {
  const name = str(payload['hook_event_name']);
  if (!name) return undefined;
  return { surface, name, cwd: str(payload['cwd']), sessionId: str(payload['session_id']) };
}

/**
 * The frame of the agents that add the editor's conversation and workspace to Claude Code's
 * payload shape (Cursor, Augment): the conversation is the session, and the first
 * workspace root the project when `cwd` is missing or empty; undefined without a hook name.
 */
export function conversationFrame(surface: Surface, payload: Payload): HookFrame | undefined {
  const name = str(payload['hook_event_name']);
  if (!name) return undefined;
  const roots = Array.isArray(payload['workspace_roots']) ? payload['workspace_roots'] : [];
  return {
    surface,
    name,
    cwd: str(payload['cwd']) ?? str(roots[0]),
    sessionId: str(payload['conversation_id']) ?? str(payload['session_id']),
  };
}

/** The skip for a payload without a hook name: the user should hear about it. */
export function noHookName(): MapResult {
  return skip('the payload has no hook_event_name', true);
}

/** The mapped hooks of one frame: the few shapes every agent's hooks turn into. */
export function hooksOf(frame: HookFrame) {
  const hook = (rest: Pick<HookEvent, 'kind' | 'body'> & Partial<HookEvent>): MapResult => ({
    hook: {
      surface: frame.surface,
      hook: frame.name,
      ...(frame.cwd ? { cwd: frame.cwd } : {}),
      ...(frame.sessionId ? { sessionId: frame.sessionId } : {}),
      startsSession: false,
      retrieve: false,
      ...rest,
    },
  });
  return {
    hook,
    /** A session starts: a note, and recent memory on stdout. */
    sessionStart: (data: Record<string, unknown> = {}): MapResult =>
      hook({
        kind: 'note',
        body: { type: 'json', data: { hook: frame.name, ...data } },
        startsSession: true,
      }),
    /**
     * The agent's context is compacted (its compaction hook): a note with `source:
     * compact`, as Claude Code's SessionStart after a compaction. What the agent held
     * before it is memory again, and the session so far is extracted now.
     */
    compaction: (): MapResult =>
      hook({
        kind: 'note',
        body: { type: 'json', data: { hook: frame.name, source: 'compact' } },
      }),
    /** The user's prompt (an empty one is skipped: nothing to record or search for). */
    prompt: (text: string | undefined, retrieve = true): MapResult =>
      text?.trim()
        ? hook({ kind: 'prompt', body: { type: 'text', content: text }, retrieve })
        : skip('empty prompt'),
    /** A tool call from a payload with `tool_name` / `tool_input` / `tool_response`. */
    tool: (payload: Payload, response?: unknown): MapResult =>
      skipOwnTool(str(payload['tool_name'])) ??
      hook({ kind: 'tool_use', body: toolBody(payload, response) }),
    /** The turn ends, with the assistant's answer where the agent gives it. */
    turnEnd: (text: string | undefined): MapResult =>
      hook({ kind: 'session_summary', body: summaryBody(text) }),
    /** The turn ends on an error, not an answer: extracted now, and read as failed. */
    turnFailed: (category: string | undefined, detail: string | undefined): MapResult =>
      hook({ kind: 'session_summary', body: failedTurnBody(category, detail) }),
  };
}
