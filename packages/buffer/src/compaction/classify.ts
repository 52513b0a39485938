import type { Event } from '@kiro-learn/schema';
import type { RetentionKind } from './options.js';

type Dict = Record<string, unknown>;
const isDict = (value: unknown): value is Dict =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** A tool use as the agents send it: Kiro `{tool_name, tool_input, tool_response}`, Claude Code alike. */
export interface ToolCall {
  name: string;
  input: Dict;
  response: unknown;
}

export function toolCall(event: Event): ToolCall | undefined {
  if (event.kind !== 'tool_use' || event.body.type !== 'json' || !isDict(event.body.data))
    return undefined;
  const data = event.body.data;
  return {
    name: str(data.tool_name) ?? str(data.toolName) ?? 'tool',
    input: isDict(data.tool_input) ? data.tool_input : {},
    response: data.tool_response ?? data.tool_output,
  };
}

function action(name: string): RetentionKind {
  const n = name.toLowerCase();
  if (/bash|shell|exec|command|terminal|run/.test(n)) return 'command';
  if (/write|edit|replace|create|append|insert|patch|delete|move|rename/.test(n))
    return 'file_write';
  if (/grep|glob|search|find|list|ls/.test(n)) return 'search';
  if (/read|view|open|cat|fetch/.test(n)) return 'file_read';
  return 'tool';
}

const exitCode = (item: Dict): number | undefined => {
  const raw = item.exit_status ?? item.exit_code ?? item.exitCode ?? item.returncode;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
};

/** The exit status a tool response reports, from the shapes agents use. */
export function exitStatus(response: unknown): number | undefined {
  if (!isDict(response)) return undefined;
  const items = Array.isArray(response.result) ? response.result : [response.result];
  for (const item of [response, ...items]) {
    const code = isDict(item) ? exitCode(item) : undefined;
    if (code !== undefined) return code;
  }
  return undefined;
}

function failed(response: unknown): boolean {
  if (!isDict(response)) return false;
  if (response.success === false || response.is_error === true || response.isError === true)
    return true;
  const code = exitStatus(response);
  return code !== undefined && code !== 0;
}

/** The retention kind of an event: a failed tool use is an `error`, tools go by what they did. */
export function retentionKind(event: Event): RetentionKind {
  if (event.kind === 'prompt') return 'prompt';
  if (event.kind === 'session_summary') return 'turn_end';
  if (event.kind === 'note') return 'note';
  const tool = toolCall(event);
  if (!tool) return 'tool';
  return failed(tool.response) ? 'error' : action(tool.name);
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'notebook_path', 'target_file', 'file'];

/** Files a tool use names in its input. */
export function filesOf(event: Event): string[] {
  const tool = toolCall(event);
  if (!tool) return [];
  const found = new Set<string>();
  for (const key of PATH_KEYS) {
    const path = str(tool.input[key]);
    if (path) found.add(path);
  }
  for (const key of ['paths', 'files', 'operations']) {
    const list = tool.input[key];
    if (Array.isArray(list))
      for (const item of list) {
        const path = str(item) ?? (isDict(item) ? (str(item.path) ?? str(item.file_path)) : '');
        if (path) found.add(path);
      }
  }
  return [...found];
}

/**
 * The project's files among a tool use's paths: relative to the project (the event's
 * `project_path`); paths outside it (a home dir, /tmp) are not the project's and left out.
 */
export function projectFilesOf(event: Event): string[] {
  const root = event.source.project_path?.replace(/\/+$/, '');
  return filesOf(event).flatMap((path) => {
    if (root && path.startsWith(`${root}/`)) return [path.slice(root.length + 1)];
    return /^(?:\/|~|[A-Za-z]:[\\/])/.test(path) ? [] : [path];
  });
}

/** The command a tool use ran, on one line. */
export function commandOf(event: Event): string | undefined {
  const tool = toolCall(event);
  const command = tool ? (str(tool.input.command) ?? str(tool.input.cmd)) : undefined;
  return command?.replace(/\s+/g, ' ').trim();
}

/** Whether a tool use succeeded, as far as its response says. */
export function outcomeOf(event: Event): { ok?: boolean; exit?: number } {
  const response = toolCall(event)?.response;
  const exit = exitStatus(response);
  if (failed(response)) return { ok: false, ...(exit === undefined ? {} : { exit }) };
  const success = isDict(response) && typeof response.success === 'boolean';
  return {
    ...(success || exit !== undefined ? { ok: true } : {}),
    ...(exit === undefined ? {} : { exit }),
  };
}
