/**
 * The Claude-shaped hook format, which Claude Code set and Codex CLI, Gemini CLI, Kiro's
 * workspace hooks, Augment and VS Code agent mode copy: JSON on stdin with
 * `hook_event_name`, `session_id` and `cwd`, tools as `tool_name` / `tool_input` /
 * `tool_response`, and context answered as `hookSpecificOutput.additionalContext`.
 *
 * An agent module says which of its hooks does what as a table, hook name → handler: the
 * hooks it has, their names and the fields its answer is in stay visible in the module,
 * and what the agents share is written once, here.
 */
import type { Surface } from '@kiro-learn/schema';
import { type HookEvent, type MapInput, type MapResult, type Payload, skip, str } from '../hook.js';
import { exitCodeIn, type HookFrame, hooksOf, namedFrame, noHookName } from './shared.js';

/** The mapped hooks of one frame (`hooksOf`). */
export type FrameHooks = ReturnType<typeof hooksOf>;

/** What one of an agent's hooks records, from its payload. */
export type ClaudeShapedHook = (h: FrameHooks, payload: Payload) => MapResult;

/** An agent's hooks: its own hook names, each with what it records. */
export type ClaudeShapedHooks = Readonly<Record<string, ClaudeShapedHook>>;

/** The handlers the Claude-shaped agents share. */
export const on = {
  /** A session starts (`source`: startup, resume, clear, compact, where the agent says). */
  sessionStart: ((h, payload) => {
    const source = str(payload['source']);
    return h.sessionStart(source ? { source } : {});
  }) satisfies ClaudeShapedHook,

  /** The user's prompt, in `prompt`; memory for it is printed. */
  prompt: ((h, payload) => h.prompt(str(payload['prompt']))) satisfies ClaudeShapedHook,

  /** A tool call with its `tool_response`. */
  tool: ((h, payload) => h.tool(payload)) satisfies ClaudeShapedHook,

  /**
   * A failed tool call, sent with an `error` text instead of a response (Claude Code's
   * `PostToolUseFailure`): recorded as the response the extractors read as a failure.
   */
  toolFailure: ((h, payload) => {
    const error = str(payload['error']) ?? 'the tool failed';
    const exitCode = exitCodeIn(error);
    return h.tool(payload, {
      success: false,
      error,
      ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
      ...(payload['is_interrupt'] === true ? { interrupted: true } : {}),
    });
  }) satisfies ClaudeShapedHook,

  /** The turn ends with the assistant's answer, which the agent sends in `field`. */
  answerIn:
    (field: string): ClaudeShapedHook =>
    (h, payload) =>
      h.turnEnd(str(payload[field])),

  /**
   * The turn ends on an error (Claude Code's `StopFailure`: a rate limit, an API error):
   * recorded as failed, with the agent's category (`error`) and its details, else the
   * error text it showed (`last_assistant_message`).
   */
  turnFailed: ((h, payload) =>
    h.turnFailed(
      str(payload['error']),
      str(payload['error_details']) ?? str(payload['last_assistant_message']),
    )) satisfies ClaudeShapedHook,

  /**
   * The session ends (perhaps with its Stop lost in a race): the turn ends, so its events
   * are extracted now. An empty body: the extractor rebuilds the turn from its events, and
   * an already-ended turn adds nothing.
   */
  turnBoundary: ((h) => h.turnEnd(undefined)) satisfies ClaudeShapedHook,

  /**
   * The context is (about to be) compacted: a compaction note. The session so far is
   * extracted now, and retrieval counts what the agent held before it as memory again.
   */
  compaction: ((h) => h.compaction()) satisfies ClaudeShapedHook,
};

/**
 * The mapping of one Claude-shaped agent: the payload's `hook_event_name` picks the
 * handler; a hook without one records nothing.
 */
export function claudeShaped(
  surface: Surface,
  hooks: ClaudeShapedHooks,
): (input: Pick<MapInput, 'payload'>) => MapResult {
  return ({ payload }) => mapNamed(surface, hooks, payload);
}

/**
 * One Claude-shaped payload through an agent's table. `key` turns the hook name into the
 * table's key (Kiro sends camelCase and PascalCase names for the same hooks).
 */
export function mapNamed(
  surface: Surface,
  hooks: ClaudeShapedHooks,
  payload: Payload,
  key: (name: string) => string = (name) => name,
): MapResult {
  const frame = namedFrame(surface, payload);
  return frame ? dispatch(frame, hooks, payload, key) : noHookName();
}

/**
 * A payload through an agent's table, once the agent's module has said who fired it (its
 * hook name, session and directory, wherever its payloads keep them).
 */
export function dispatch(
  frame: HookFrame,
  hooks: ClaudeShapedHooks,
  payload: Payload,
  key: (name: string) => string = (name) => name,
): MapResult {
  const name = key(frame.name);
  const handle = Object.hasOwn(hooks, name) ? hooks[name] : undefined;
  return handle ? handle(hooksOf(frame), payload) : skip(`hook ${frame.name} is not recorded`);
}

/**
 * What the hook prints for agents that parse a hook's stdout as JSON (Codex CLI, Gemini
 * CLI): always JSON, `{}` when there is nothing to add, else the context as
 * `hookSpecificOutput.additionalContext` of the hook that asked.
 */
export function additionalContextAnswer(
  hook: HookEvent | undefined,
  context: string | undefined,
): string {
  if (!hook || !context) return '{}\n';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: hook.hook, additionalContext: context } })}\n`;
}
