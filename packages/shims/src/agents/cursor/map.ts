import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { hooksOf, isOwnMcpTool, noHookName, skipOwnTool } from '../shared.js';
import type {
  CursorAfterAgentResponse,
  CursorAfterFileEdit,
  CursorAfterMCPExecution,
  CursorAfterShellExecution,
  CursorBase,
  CursorBeforeSubmitPrompt,
} from './payload.js';

/** kiro-learn's own tools under their bare names, as Cursor reports MCP tools. */
const OWN_BARE =
  /^(?:search_memory|get_memories|timeline|get_event|save_session_summary|save_observation|forget_memory)$/;

/**
 * Cursor agent hooks: each kind of tool has its own hook (shell, file edit, MCP), turned
 * into the `{tool_name, tool_input, tool_response}` every other agent sends;
 * `afterAgentResponse` carries the turn's answer and ends it.
 */
export function mapCursor({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return noHookName();
  const p = payload as Loose<CursorBase & { cwd: string }>;
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
  const h = hooksOf({
    surface: 'cursor',
    name,
    cwd: str(p.cwd) ?? str(roots[0]),
    sessionId: str(p.conversation_id) ?? str(payload['session_id']),
  });
  const tool = (tool_name: string, tool_input: unknown, tool_response: unknown): MapResult =>
    h.hook({
      kind: 'tool_use',
      body: { type: 'json', data: { tool_name, tool_input, tool_response } },
    });
  switch (name) {
    case 'sessionStart':
      return h.sessionStart();
    case 'beforeSubmitPrompt':
      // Cursor takes no context from this hook: memory reaches it through the MCP tools.
      return h.prompt(str((payload as Loose<CursorBeforeSubmitPrompt>).prompt), false);
    case 'afterShellExecution': {
      const s = payload as Loose<CursorAfterShellExecution>;
      return tool('Shell', { command: str(s.command) ?? null }, s.output ?? null);
    }
    case 'afterFileEdit': {
      const e = payload as Loose<CursorAfterFileEdit>;
      return tool('Edit', { file_path: str(e.file_path) ?? null, edits: e.edits ?? [] }, null);
    }
    case 'afterMCPExecution': {
      const m = payload as Loose<CursorAfterMCPExecution>;
      const toolName = str(m.tool_name);
      const server = `${str(m.command) ?? ''} ${str(m.url) ?? ''}`;
      if (
        isOwnMcpTool(toolName) ||
        (toolName && OWN_BARE.test(toolName) && /kiro-learn/.test(server))
      ) {
        return skipOwnTool(`@kiro-learn/${toolName}`)!;
      }
      return tool(toolName ?? 'mcp', parseJson(m.tool_input), parseJson(m.result_json));
    }
    case 'afterAgentResponse':
      return h.turnEnd(str((payload as Loose<CursorAfterAgentResponse>).text));
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** What a Cursor hook prints: `beforeSubmitPrompt` answers `{"continue": true}`; others nothing. */
export function cursorAnswer(
  hook: HookEvent | undefined,
  _context: string | undefined,
): string | undefined {
  return hook?.hook === 'beforeSubmitPrompt' ? '{"continue":true}\n' : undefined;
}
