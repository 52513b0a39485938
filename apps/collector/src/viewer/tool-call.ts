/**
 * A tool call as a row says it: the tool, the one argument that tells what it did (the
 * command, the file, the pattern), and how it ended. Every agent names these differently
 * (`command`, `file_path`, `filePath`, `target_file`, Kiro's `operations[].path`, Codex's
 * patch text…); the raw event stays one click away for everything else.
 */
import type { Event } from '@kiro-learn/schema';

export interface ToolCall {
  /** The agent's name for the tool (`Bash`, `execute_bash`, `Edit`…). */
  name: string;
  /** What it acted on, one line: a command, a path, a pattern. */
  target?: string;
  /** How it ended, when the agent says: `exit 0`, `exit 1`, `ok`, `failed`. */
  outcome?: { ok: boolean; text: string };
}

const TARGET_MAX = 160;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TARGET_MAX ? `${flat.slice(0, TARGET_MAX - 1)}…` : flat;
}

/** The files a patch (Codex's `apply_patch`) touches, from its `*** Update File:` lines. */
function patchFiles(text: string): string | undefined {
  const files = [...text.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => m[1]!);
  return files.length > 0 ? files.join(', ') : undefined;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value;
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    return value.join(' ');
  }
  return undefined;
}

/** The argument that says what the call did. */
function targetOf(input: unknown): string | undefined {
  if (!isObject(input)) return asText(input);
  const command = asText(input['command']) ?? asText(input['cmd']);
  if (command) return command.startsWith('*** Begin Patch') ? patchFiles(command) : command;
  const path =
    asText(input['file_path']) ??
    asText(input['filePath']) ??
    asText(input['target_file']) ??
    asText(input['notebook_path']) ??
    asText(input['path']);
  const pattern = asText(input['pattern']) ?? asText(input['query']) ?? asText(input['regex']);
  if (pattern) return path ? `${pattern} in ${path}` : pattern;
  if (path) return path;
  const operations = input['operations'];
  if (Array.isArray(operations) && isObject(operations[0])) {
    const first = asText(operations[0]['path']);
    if (first) return operations.length > 1 ? `${first} (+${operations.length - 1})` : first;
  }
  const files = input['files'];
  if (Array.isArray(files) && typeof files[0] === 'string') {
    return files.length > 1 ? `${files[0]} (+${files.length - 1})` : files[0];
  }
  for (const key of ['url', 'sql', 'prompt', 'description']) {
    const text = asText(input[key]);
    if (text) return text;
  }
  return Object.values(input).map(asText).find(Boolean);
}

/** An exit code written in an agent's text ("Exit code: 1", "Return code: 0", …). */
function exitCodeInText(text: string): number | undefined {
  const match = /\b(?:exit(?:ed with)?(?: exit)? (?:code|status)|return code)\s*:?\s*(-?\d+)/i.exec(
    text,
  );
  return match ? Number(match[1]) : undefined;
}

function exitCodeIn(response: unknown): number | undefined {
  if (typeof response === 'string') return exitCodeInText(response);
  if (!isObject(response)) return undefined;
  for (const key of ['exit_code', 'exitCode', 'exit_status', 'returncode']) {
    const value = response[key];
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  }
  const result = response['result'];
  if (Array.isArray(result) && isObject(result[0])) return exitCodeIn(result[0]);
  for (const key of ['error', 'output', 'llmContent', 'result']) {
    const value = response[key];
    if (typeof value === 'string') {
      const code = exitCodeInText(value);
      if (code !== undefined) return code;
    }
  }
  return undefined;
}

function outcomeOf(response: unknown): ToolCall['outcome'] {
  const code = exitCodeIn(response);
  if (code !== undefined) return { ok: code === 0, text: `exit ${code}` };
  if (!isObject(response)) return undefined;
  if (response['success'] === false || response['is_error'] === true || response['error']) {
    return { ok: false, text: 'failed' };
  }
  if (response['success'] === true) return { ok: true, text: 'ok' };
  return undefined;
}

/** The tool call a `tool_use` event records, or undefined for any other event. */
export function toolCall(event: Pick<Event, 'kind' | 'body'>): ToolCall | undefined {
  if (event.kind !== 'tool_use' || event.body.type !== 'json' || !isObject(event.body.data)) {
    return undefined;
  }
  const data = event.body.data;
  const name = typeof data['tool_name'] === 'string' ? data['tool_name'] : 'tool';
  const target = targetOf(data['tool_input']);
  const outcome = outcomeOf(data['tool_response']);
  return {
    name,
    ...(target !== undefined ? { target: oneLine(target) } : {}),
    ...(outcome !== undefined ? { outcome } : {}),
  };
}
