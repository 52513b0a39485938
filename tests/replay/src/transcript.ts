/**
 * A Claude Code session transcript (the JSON Lines file Claude Code keeps under
 * ~/.claude/projects/) turned back into the hook payloads Claude Code sent while the session
 * ran: SessionStart, then per turn UserPromptSubmit, a PostToolUse or PostToolUseFailure per
 * tool call, Stop with the turn's last text; PreCompact where the session was compacted, and
 * SessionEnd. Field names and shapes are those of Claude Code's hook reference (and of
 * /work/shared/fixtures/hook-payloads/claude-code): `tool_response` is the transcript's
 * `toolUseResult`, a failed call's `error` its error text.
 */

/** The hook events a replay sends, as Claude Code names them. */
export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'Stop'
  | 'SessionEnd';

export interface HookCall {
  event: HookEvent;
  /** The JSON Claude Code writes to the hook's stdin. */
  payload: Record<string, unknown>;
  /** 1-based turn it belongs to (0: before the first prompt). */
  turn: number;
}

export interface Transcript {
  sessionId: string;
  /** The working directory the session ran in (rewritten to the replay's project). */
  originalCwd: string;
  calls: HookCall[];
  /** The user's prompts, in order (one per turn). */
  prompts: string[];
  /** Tool calls replayed (PostToolUse and PostToolUseFailure). */
  toolCalls: number;
}

export interface TranscriptOptions {
  /** The directory the replayed session runs in: the original cwd is replaced by it everywhere. */
  cwd: string;
  /** Where the transcript "is" (`transcript_path` of every payload). */
  transcriptPath: string;
}

type Json = Record<string, unknown>;
const isDict = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** User lines Claude Code writes itself: slash-command echoes, notifications, reminders. */
const SYNTHETIC =
  /^\s*<(local-command-stdout|local-command-stderr|local-command-caveat|task-notification|system-reminder|bash-input|bash-stdout|bash-stderr|user-memory-input)\b/;
const COMMAND = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const INTERRUPTED = /^\[Request interrupted by user/;
const REFUSED = /^The user doesn't want to proceed with this tool use/;

/** Text of a tool_result's `content` (a string or a list of text blocks). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block) => (isDict(block) && typeof block.text === 'string' ? block.text : ''))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => isDict(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => (block as { text: string }).text)
    .join('\n');
}

/**
 * Turns a transcript's text into the hook calls of its session, with every occurrence of
 * the session's working directory replaced by `options.cwd` (so paths inside the project
 * stay inside the replay's project, and paths outside it stay outside).
 */
export function transcriptToHooks(text: string, options: TranscriptOptions): Transcript {
  const lines: Json[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const line = JSON.parse(raw) as unknown;
      if (isDict(line)) lines.push(line);
    } catch {
      // a torn last line (a session still being written): skipped
    }
  }
  const originalCwd = lines.find((line) => typeof line.cwd === 'string')?.cwd as string | undefined;
  const sessionId =
    (lines.find((line) => typeof line.sessionId === 'string')?.sessionId as string | undefined) ??
    'replayed-session';
  const rewrite = <T>(value: T): T =>
    originalCwd && originalCwd !== '/'
      ? (JSON.parse(JSON.stringify(value).replaceAll(originalCwd, options.cwd)) as T)
      : value;

  const calls: HookCall[] = [];
  const prompts: string[] = [];
  let turn = 0;
  let open = false;
  let interrupted = false;
  let lastText = '';
  let toolCalls = 0;
  const toolUses = new Map<string, { name: string; input: Json }>();
  const base = (event: HookEvent): Json => ({
    session_id: sessionId,
    transcript_path: options.transcriptPath,
    cwd: options.cwd,
    permission_mode: 'default',
    hook_event_name: event,
  });
  const emit = (event: HookEvent, fields: Json) =>
    calls.push({ event, payload: { ...base(event), ...rewrite(fields) }, turn });
  const closeTurn = () => {
    // An interrupted turn ends without a Stop hook, as in Claude Code.
    if (open && !interrupted) {
      emit('Stop', { stop_hook_active: false, last_assistant_message: lastText });
    }
    open = false;
    interrupted = false;
    lastText = '';
  };
  const prompt = (textOfPrompt: string) => {
    closeTurn();
    turn++;
    open = true;
    prompts.push(textOfPrompt);
    emit('UserPromptSubmit', { prompt: textOfPrompt });
  };

  calls.push({
    event: 'SessionStart',
    payload: { ...base('SessionStart'), source: 'startup' },
    turn,
  });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const message = isDict(line.message) ? line.message : undefined;
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      const meta = isDict(line.compactMetadata) ? line.compactMetadata : {};
      emit('PreCompact', {
        trigger: meta.trigger === 'manual' ? 'manual' : 'auto',
        custom_instructions: '',
      });
      calls.push({
        event: 'SessionStart',
        payload: { ...base('SessionStart'), source: 'compact' },
        turn,
      });
      continue;
    }
    if (line.type === 'assistant' && message && Array.isArray(message.content)) {
      for (const block of message.content) {
        if (!isDict(block)) continue;
        if (block.type === 'tool_use' && typeof block.id === 'string') {
          toolUses.set(block.id, {
            name: typeof block.name === 'string' ? block.name : 'tool',
            input: isDict(block.input) ? block.input : {},
          });
        } else if (block.type === 'text' && typeof block.text === 'string' && !line.isSidechain) {
          if (block.text.trim() !== '') lastText = block.text;
        }
      }
      continue;
    }
    if (line.type !== 'user' || !message) continue;
    const content = message.content;
    const results = Array.isArray(content)
      ? content.filter((block) => isDict(block) && block.type === 'tool_result')
      : [];
    if (results.length > 0) {
      for (const result of results as Json[]) {
        const use = toolUses.get(String(result.tool_use_id));
        // A call the user refused never ran: Claude Code fires no PostToolUse for it.
        if (!use || REFUSED.test(resultText(result.content))) continue;
        toolCalls++;
        const structured = line.toolUseResult;
        const failed =
          result.is_error === true ||
          (typeof structured === 'string' && /^Error:/.test(structured));
        const common = {
          tool_name: use.name,
          tool_input: use.input,
          tool_use_id: result.tool_use_id,
        };
        if (failed) {
          const error =
            typeof structured === 'string'
              ? structured.replace(/^Error:\s*/, '')
              : resultText(result.content).replace(/<\/?tool_use_error>/g, '');
          emit('PostToolUseFailure', { ...common, error, is_interrupt: false });
        } else {
          emit('PostToolUse', {
            ...common,
            tool_response: structured !== undefined ? structured : resultText(result.content),
          });
        }
      }
      continue;
    }
    if (line.isMeta === true || line.isCompactSummary === true || line.isSidechain === true)
      continue;
    const said = textOf(content).trim();
    if (said === '') continue;
    if (INTERRUPTED.test(said)) {
      interrupted = true;
      continue;
    }
    if (SYNTHETIC.test(said)) continue;
    const command = COMMAND.exec(said);
    if (command) {
      // A built-in command runs locally (its output follows as local-command-stdout): no
      // prompt reaches the model and no UserPromptSubmit fires.
      const next = lines.slice(i + 1).find((l) => l.type === 'user' || l.type === 'assistant');
      const nextText = next && isDict(next.message) ? textOf(next.message.content) : '';
      if (next?.type === 'user' && /<local-command-stdout>/.test(nextText)) continue;
      const args = COMMAND_ARGS.exec(said)?.[1]?.trim();
      prompt(`${command[1]}${args ? ` ${args}` : ''}`);
      continue;
    }
    prompt(said);
  }
  closeTurn();
  calls.push({
    event: 'SessionEnd',
    payload: { ...base('SessionEnd'), reason: 'other' },
    turn,
  });
  return { sessionId, originalCwd: originalCwd ?? options.cwd, calls, prompts, toolCalls };
}
