import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { exitCodeIn, skipOwnTool, summaryBody, toolBody } from '../shared.js';
import type {
  ClaudeCodePostToolUseFailure,
  ClaudeCodeSessionStart,
  ClaudeCodeStop,
  ClaudeCodeUserPromptSubmit,
} from './payload.js';
import { lastAssistantText } from './transcript.js';

/**
 * Claude Code hooks (`.claude/settings.local.json`, `~/.claude/settings.json`). Stop takes
 * the answer from `last_assistant_message`; the transcript only when that is missing.
 */
export function mapClaudeCode({ payload }: Pick<MapInput, 'payload'>): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return skip('the payload has no hook_event_name', true);
  const base = {
    surface: 'claude-code' as const,
    hook: name,
    ...(str(payload['cwd']) ? { cwd: str(payload['cwd'])! } : {}),
    ...(str(payload['session_id']) ? { sessionId: str(payload['session_id'])! } : {}),
    startsSession: false,
    retrieve: false,
  };
  const hook = (rest: Pick<HookEvent, 'kind' | 'body'> & Partial<HookEvent>): MapResult => ({
    hook: { ...base, ...rest },
  });
  switch (name) {
    case 'SessionStart': {
      const p = payload as Loose<ClaudeCodeSessionStart>;
      return hook({
        kind: 'note',
        body: { type: 'json', data: { hook: name, source: str(p.source) ?? null } },
        startsSession: true,
      });
    }
    case 'UserPromptSubmit': {
      const prompt = str((payload as Loose<ClaudeCodeUserPromptSubmit>).prompt);
      if (!prompt?.trim()) return skip('empty prompt');
      return hook({ kind: 'prompt', body: { type: 'text', content: prompt }, retrieve: true });
    }
    case 'PostToolUse':
      return (
        skipOwnTool(str(payload['tool_name'])) ??
        hook({ kind: 'tool_use', body: toolBody(payload) })
      );
    case 'PostToolUseFailure': {
      const p = payload as Loose<ClaudeCodePostToolUseFailure>;
      const own = skipOwnTool(str(p.tool_name));
      if (own) return own;
      // The failure as a response the extractors read like any other agent's failed tool.
      const error = str(p.error) ?? 'the tool failed';
      const exitCode = exitCodeIn(error);
      const response = {
        success: false,
        error,
        ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
        ...(p.is_interrupt === true ? { interrupted: true } : {}),
      };
      return hook({ kind: 'tool_use', body: toolBody(payload, response) });
    }
    case 'Stop': {
      const p = payload as Loose<ClaudeCodeStop>;
      const text = str(p.last_assistant_message)?.trim()
        ? str(p.last_assistant_message)
        : transcriptAnswer(str(p.transcript_path));
      return hook({ kind: 'session_summary', body: summaryBody(text) });
    }
    // Context about to be compacted, or a session ending (perhaps with its Stop lost in a
    // race): both end the turn, so its events are extracted now. An empty body: the
    // extractor rebuilds the turn from its events, and an already-ended turn adds nothing.
    case 'PreCompact':
    case 'SessionEnd':
      return hook({ kind: 'session_summary', body: summaryBody(undefined) });
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

function transcriptAnswer(path: string | undefined): string | undefined {
  return path ? lastAssistantText(path) : undefined;
}
