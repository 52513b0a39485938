import { type HookEvent, type MapInput, type MapResult, type Payload, str } from '../../hook.js';
import { type ClaudeShapedHook, dispatch, on } from '../claude-shaped.js';
import { noHookName } from '../shared.js';

/** The object of one hook's own fields (`postToolUse` for `PostToolUse`). */
const own = (p: Payload, name: string): Record<string, unknown> => {
  const value = p[name[0]!.toLowerCase() + name.slice(1)];
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
};
const metadata = (p: Payload, name: string): Record<string, unknown> => {
  const value = own(p, name)['taskMetadata'];
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
};

/**
 * A task starts with the user's first message: recorded as the prompt, and memory for it
 * comes back (TaskStart is also the session's start). Without one, a session-start note.
 */
const taskStart: ClaudeShapedHook = (h, p) => {
  const task = str(metadata(p, 'TaskStart')['initialTask']);
  return task?.trim()
    ? h.hook({
        kind: 'prompt',
        body: { type: 'text', content: task },
        retrieve: true,
        startsSession: true,
      })
    : h.sessionStart({});
};

/** Cline tool names with `tool_name` / `tool_input` / `tool_response` as every agent's. */
const postToolUse: ClaudeShapedHook = (h, p) => {
  const t = own(p, 'PostToolUse');
  const server = str((t['parameters'] as Record<string, unknown> | undefined)?.['server_name']);
  const mcpTool = str((t['parameters'] as Record<string, unknown> | undefined)?.['tool_name']);
  const name = server && mcpTool ? `mcp__${server}__${mcpTool}` : (str(t['toolName']) ?? 'unknown');
  return h.tool(
    { tool_name: name, tool_input: t['parameters'] ?? null },
    {
      ...(typeof t['success'] === 'boolean' ? { success: t['success'] } : {}),
      result: t['result'] ?? null,
    },
  );
};

const CLINE_HOOKS = {
  TaskStart: taskStart,
  TaskResume: ((h) => h.sessionStart({ source: 'resume' })) satisfies ClaudeShapedHook,
  UserPromptSubmit: ((h, p) =>
    h.prompt(str(own(p, 'UserPromptSubmit')['prompt']))) satisfies ClaudeShapedHook,
  PostToolUse: postToolUse,
  TaskComplete: ((h, p) =>
    h.turnEnd(str(own(p, 'TaskComplete')['result']))) satisfies ClaudeShapedHook,
  TaskCancel: on.turnBoundary,
  PreCompact: on.compaction,
};

/** Cline hooks: `hookName` names the hook, the task is the session, the first root the project. */
export function mapCline({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const name = str(payload['hookName']);
  if (!name) return noHookName();
  const roots = Array.isArray(payload['workspaceRoots']) ? payload['workspaceRoots'] : [];
  return dispatch(
    { surface: 'cline', name, cwd: str(roots[0]), sessionId: str(payload['taskId']) },
    CLINE_HOOKS,
    payload,
  );
}

/**
 * What a Cline hook prints: JSON, always (`{"cancel": false}`), with memory for a prompt or
 * a new task as `contextModification`.
 */
export function clineAnswer(hook: HookEvent | undefined, context: string | undefined): string {
  return `${JSON.stringify(context && hook?.retrieve !== false ? { cancel: false, contextModification: context } : { cancel: false })}\n`;
}
