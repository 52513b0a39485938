import { type Loose, type MapInput, type MapResult, skip, str } from '../../hook.js';
import { exitCodeIn, hooksOf, namedFrame, noHookName } from '../shared.js';
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
  const frame = namedFrame('claude-code', payload);
  if (!frame) return noHookName();
  const h = hooksOf(frame);
  switch (frame.name) {
    case 'SessionStart':
      return h.sessionStart({
        source: str((payload as Loose<ClaudeCodeSessionStart>).source) ?? null,
      });
    case 'UserPromptSubmit':
      return h.prompt(str((payload as Loose<ClaudeCodeUserPromptSubmit>).prompt));
    case 'PostToolUse':
      return h.tool(payload);
    case 'PostToolUseFailure': {
      // The failure as a response the extractors read like any other agent's failed tool.
      const p = payload as Loose<ClaudeCodePostToolUseFailure>;
      const error = str(p.error) ?? 'the tool failed';
      const exitCode = exitCodeIn(error);
      return h.tool(payload, {
        success: false,
        error,
        ...(exitCode !== undefined ? { exit_code: exitCode } : {}),
        ...(p.is_interrupt === true ? { interrupted: true } : {}),
      });
    }
    case 'Stop': {
      const p = payload as Loose<ClaudeCodeStop>;
      const text = str(p.last_assistant_message)?.trim()
        ? str(p.last_assistant_message)
        : transcriptAnswer(str(p.transcript_path));
      return h.turnEnd(text);
    }
    // Context about to be compacted, or a session ending (perhaps with its Stop lost in a
    // race): both end the turn, so its events are extracted now. An empty body: the
    // extractor rebuilds the turn from its events, and an already-ended turn adds nothing.
    case 'PreCompact':
    case 'SessionEnd':
      return h.turnEnd(undefined);
    default:
      return skip(`hook ${frame.name} is not recorded`);
  }
}

function transcriptAnswer(path: string | undefined): string | undefined {
  return path ? lastAssistantText(path) : undefined;
}
