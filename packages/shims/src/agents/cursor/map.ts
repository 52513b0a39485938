import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { isOwnMcpTool, skipOwnTool, summaryBody } from '../shared.js';
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
  if (!name) return skip('the payload has no hook_event_name', true);
  const p = payload as Loose<CursorBase & { cwd: string }>;
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
  const cwd = str(p.cwd) ?? str(roots[0]);
  const session = str(p.conversation_id) ?? str(payload['session_id']);
  const base = {
    surface: 'cursor' as const,
    hook: name,
    ...(cwd ? { cwd } : {}),
    ...(session ? { sessionId: session } : {}),
    startsSession: false,
    retrieve: false,
  };
  const hook = (rest: Pick<HookEvent, 'kind' | 'body'> & Partial<HookEvent>): MapResult => ({
    hook: { ...base, ...rest },
  });
  const tool = (tool_name: string, tool_input: unknown, tool_response: unknown): MapResult =>
    hook({
      kind: 'tool_use',
      body: { type: 'json', data: { tool_name, tool_input, tool_response } },
    });
  switch (name) {
    case 'sessionStart':
      return hook({
        kind: 'note',
        body: { type: 'json', data: { hook: name } },
        startsSession: true,
      });
    case 'beforeSubmitPrompt': {
      const prompt = str((payload as Loose<CursorBeforeSubmitPrompt>).prompt);
      if (!prompt?.trim()) return skip('empty prompt');
      // Cursor takes no context from this hook: memory reaches it through the MCP tools.
      return hook({ kind: 'prompt', body: { type: 'text', content: prompt } });
    }
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
      return hook({
        kind: 'session_summary',
        body: summaryBody(str((payload as Loose<CursorAfterAgentResponse>).text)),
      });
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
