import type { Event } from '@kiro-learn/schema';
import { oneLine } from '../text.js';

/**
 * What a tool did, across agents' tool names (Kiro `fs_read`, Claude Code `Read`, …).
 * `internal`: the agent's own bookkeeping (its to-do list, plan mode, task handles, questions
 * to the user, skills, kiro-learn's own tools): nothing the project learned.
 */
export type ToolAction = 'read' | 'write' | 'command' | 'search' | 'other' | 'internal';

/** One tool use, read out of a `tool_use` event's `{tool_name, tool_input, tool_response}`. */
export interface ToolUse {
  eventId: string;
  name: string;
  action: ToolAction;
  /** Files of the project the tool read or wrote, relative to the project. */
  files: string[];
  /** Paths outside the project the tool touched (absolute; not the project's files). */
  outside: string[];
  /** The shell command, for command tools. */
  command?: string;
  /** Why the agent used the tool, when it said (`summary`, `description`). */
  purpose?: string;
  /** For edits: the text replaced and its replacement (or what was created). */
  change?: { before?: string; after?: string; kind: string };
  /** True/false when the response says; undefined when it does not. */
  ok: boolean | undefined;
  exitCode?: number;
  /** Output text (stdout, stderr, result lines), for reading errors and test counts. */
  output: string;
}

type Dict = Record<string, unknown>;
const isDict = (value: unknown): value is Dict =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * The agent's bookkeeping tools (Claude Code's to-do and task tools, plan mode, questions,
 * skills, tool search; other agents' equivalents) and kiro-learn's own MCP tools, whose
 * results are memory the agent was just shown.
 */
const INTERNAL =
  /^(?:todo_?(?:write|read|list)|task_?(?:create|update|list|get|output|stop)|(?:enter|exit)_?plan_?mode|ask_?user_?question|skill|tool_?search|send_?message|monitor|list_?mcp_?resources(?:_?tool)?|read_?mcp_?resource(?:_?tool)?|update_?plan|think|mcp__kiro-learn__.*|mcp__kiro_learn__.*|kiro-learn.*)$/i;

function classify(name: string): ToolAction {
  const n = name.toLowerCase();
  if (INTERNAL.test(name)) return 'internal';
  if (/bash|shell|exec|command|terminal|run/.test(n)) return 'command';
  if (/write|edit|replace|create|append|insert|patch|delete|move|rename/.test(n)) return 'write';
  if (/grep|glob|search|find|list|ls/.test(n)) return 'search';
  if (/read|view|open|cat|fetch/.test(n)) return 'read';
  return 'other';
}

function paths(input: Dict, response: unknown): string[] {
  const found: string[] = [];
  const take = (value: unknown) => {
    const path = str(value);
    if (path) found.push(path);
  };
  for (const key of ['path', 'file_path', 'filePath', 'notebook_path', 'target_file', 'file'])
    take(input[key]);
  for (const key of ['paths', 'files', 'operations', 'edits']) {
    const list = input[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item === 'string') take(item);
      else if (isDict(item)) {
        take(item.path);
        take(item.file_path);
      }
    }
  }
  if (found.length === 0 && isDict(response)) take(response.filePath);
  return found;
}

function relative(path: string, projectPath: string | undefined): string {
  if (projectPath && path.startsWith(`${projectPath.replace(/\/+$/, '')}/`)) {
    return path.slice(projectPath.replace(/\/+$/, '').length + 1);
  }
  return path;
}

/** A path that is not the project's: absolute after making it relative, or in a home dir. */
export function isOutsidePath(path: string): boolean {
  return /^(?:\/|~|[A-Za-z]:[\\/]|\\\\)/.test(path);
}

function exitCodeOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

/**
 * Kiro IDE 1.x sends a command's result as one string, `Output:\n…` ending in
 * `Exit Code: N`, with `tool_input: {}`.
 */
const TRAILING_EXIT_CODE = /(?:^|\n)[ \t]*Exit Code:[ \t]*(-?\d+)[ \t]*\s*$/i;

/** Output and exit code of a string response; the exit code only when it ends the text. */
function stringOutcome(response: string): Pick<ToolUse, 'ok' | 'exitCode' | 'output'> {
  const match = TRAILING_EXIT_CODE.exec(response);
  if (!match) return { ok: undefined, output: response };
  const exitCode = Number(match[1]);
  const output = response
    .slice(0, match.index)
    .replace(/^\s*Output:[ \t]*\n?/i, '')
    .trimEnd();
  return { ok: exitCode === 0, exitCode, output };
}

/** Reads success, exit code and output from the response shapes agents use. */
function outcome(response: unknown): Pick<ToolUse, 'ok' | 'exitCode' | 'output'> {
  if (typeof response === 'string') return stringOutcome(response);
  if (!isDict(response)) return { ok: undefined, output: '' };
  const parts: string[] = [];
  let exitCode: number | undefined;
  const collect = (item: unknown) => {
    if (typeof item === 'string') parts.push(item);
    else if (isDict(item)) {
      for (const key of ['stdout', 'stderr', 'output', 'content', 'text', 'message', 'error']) {
        const text = str(item[key]);
        if (text) parts.push(text);
      }
      exitCode ??= exitCodeOf(
        item.exit_status ?? item.exit_code ?? item.exitCode ?? item.returncode,
      );
    }
  };
  collect(response);
  if (Array.isArray(response.result)) response.result.forEach(collect);
  else collect(response.result);
  // Claude Code's PostToolUseFailure carries its error as `error`, sometimes with its
  // newlines escaped (`\\n`): one line per line again, so the error line can be found.
  for (let i = 0; i < parts.length; i++) {
    if (!parts[i]!.includes('\n') && parts[i]!.includes('\\n'))
      parts[i] = parts[i]!.replace(/\\n/g, '\n');
  }
  let ok = typeof response.success === 'boolean' ? response.success : undefined;
  if (response.is_error === true || response.isError === true || response.interrupted === true)
    ok = false;
  if (exitCode !== undefined) ok = exitCode === 0 && ok !== false;
  return { ok, output: parts.join('\n'), ...(exitCode === undefined ? {} : { exitCode }) };
}

/** The edits of a multi-edit call (Claude Code's `MultiEdit`: `edits: [{old_string, new_string}]`), joined. */
function multiEdit(input: Dict): { before?: string; after?: string } {
  if (!Array.isArray(input.edits)) return {};
  const edits = input.edits.filter(isDict);
  const join = (key: string, alt: string) =>
    edits.flatMap((edit) => str(edit[key]) ?? str(edit[alt]) ?? []).join('\n') || undefined;
  return { before: join('old_string', 'old_str'), after: join('new_string', 'new_str') };
}

function changeOf(name: string, input: Dict): ToolUse['change'] {
  const multi = multiEdit(input);
  const before = str(input.old_str) ?? str(input.old_string) ?? str(input.oldStr) ?? multi.before;
  const after = str(input.new_str) ?? str(input.new_string) ?? str(input.newStr) ?? multi.after;
  const content = str(input.file_text) ?? str(input.content);
  const kind = str(input.command) ?? name;
  if (before !== undefined || after !== undefined)
    return { kind, ...(before ? { before } : {}), ...(after ? { after } : {}) };
  if (content !== undefined) return { kind, after: content };
  return { kind };
}

/** Interprets a `tool_use` event, or undefined when its body is not a tool use. */
export function readToolUse(event: Event): ToolUse | undefined {
  if (event.kind !== 'tool_use' || event.body.type !== 'json' || !isDict(event.body.data))
    return undefined;
  const data = event.body.data;
  const name = str(data.tool_name) ?? str(data.toolName) ?? 'tool';
  const input = isDict(data.tool_input) ? data.tool_input : {};
  const response = data.tool_response ?? data.tool_output;
  // A tool of no known name that is given a shell command runs it (Augment's
  // `launch-process`, agents' own process tools).
  const named = classify(name);
  const classified = named === 'other' && str(input.command) !== undefined ? 'command' : named;
  const projectPath = event.source.project_path;
  const purpose = str(input.summary) ?? str(input.description) ?? str(input.explanation);
  const rawCommand = classified === 'command' ? (str(input.command) ?? str(input.cmd)) : undefined;
  const command = rawCommand === undefined ? undefined : withinProject(rawCommand, projectPath);
  const touched = [...new Set(paths(input, response).map((path) => relative(path, projectPath)))];
  const files = touched.filter((path) => !isOutsidePath(path));
  // A write with no file of the project (a to-do list, a scratch file in /tmp) wrote nothing
  // the project keeps.
  const action = classified === 'write' && files.length === 0 ? 'other' : classified;
  return {
    eventId: event.event_id,
    name,
    action,
    files,
    outside: touched.filter(isOutsidePath),
    ...(command ? { command: oneLine(command) } : {}),
    ...(purpose ? { purpose: oneLine(purpose) } : {}),
    ...(action === 'write' ? { change: changeOf(name, input) } : {}),
    ...inProject(outcome(response), projectPath),
  };
}

/**
 * Text with the project's own absolute path made relative (`python /home/dev/src/shop/a.py`
 * → `python a.py`): the same command reads the same in every checkout, and a record does not
 * carry the user's home directory.
 */
export function withinProject(text: string, projectPath: string | undefined): string {
  const root = projectPath?.replace(/\/+$/, '');
  if (!root || root.length < 2) return text;
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .replace(new RegExp(`(?<![\\w./-])${escaped}/`, 'g'), '')
    .replace(new RegExp(`(?<![\\w./-])${escaped}(?=$|[\\s'"\`:;,)])`, 'gm'), '.');
}

function inProject<T extends { output: string }>(result: T, projectPath: string | undefined): T {
  return { ...result, output: withinProject(result.output, projectPath) };
}
