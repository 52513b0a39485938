import type { HookEvent, MapInput, MapResult, ShimSurface } from '../hook.js';
import { mapAugment } from './augment/map.js';
import { mapClaudeCode } from './claude-code/map.js';
import { additionalContextAnswer } from './claude-shaped.js';
import { clineAnswer, mapCline } from './cline/map.js';
import { mapCodex } from './codex/map.js';
import { copilotAnswer, mapCopilot } from './copilot/map.js';
import { cursorAnswer, mapCursor } from './cursor/map.js';
import { mapGemini } from './gemini-cli/map.js';
import { mapKiro } from './kiro/map.js';
import { mapKiroIde } from './kiro-ide-legacy/map.js';
import { mapOpenCode } from './opencode/map.js';
import { mapWindsurf } from './windsurf/map.js';

/** What a hook prints: for agents that parse a hook's stdout. */
export type HookAnswer = (
  hook: HookEvent | undefined,
  context: string | undefined,
) => string | undefined;

/** What one hook script does with its input: where the payload comes from and how it maps. */
export interface HookEntry {
  /** The payload is JSON on stdin (false: legacy Kiro IDE, whose stdin never closes). */
  stdin: boolean;
  /**
   * The agent names no directory in most payloads but runs its hooks in the workspace:
   * the hook's own working directory is the project, nothing to warn about.
   */
  runsInProject?: true;
  /** Payload → the event to record, or why nothing is. */
  map(input: MapInput): MapResult;
  /**
   * What the hook prints, on every path (also when nothing was recorded): for agents that
   * parse a hook's stdout. Default: the context as plain text, nothing without one.
   */
  answer?: HookAnswer;
}

/**
 * Claude Code's hook files are run by other agents too (Cursor, VS Code, Copilot CLI): the
 * answer is the format of the agent that sent the payload, which the mapping recorded.
 */
const answerAsRecorded: HookAnswer = (hook, context) =>
  hook?.surface === 'cursor'
    ? cursorAnswer(hook, context)
    : hook?.surface === 'vscode' || hook?.surface === 'copilot-cli'
      ? copilotAnswer(hook, context)
      : context;

/** Each hook script's agent module. Adding an agent adds one line here. */
export const HOOK_ENTRIES: Record<ShimSurface, HookEntry> = {
  kiro: { stdin: true, map: mapKiro },
  'kiro-ide': { stdin: false, map: mapKiroIde },
  'claude-code': { stdin: true, map: mapClaudeCode, answer: answerAsRecorded },
  // Both parse what a hook prints: JSON, always.
  codex: { stdin: true, map: mapCodex, answer: additionalContextAnswer },
  'gemini-cli': { stdin: true, map: mapGemini, answer: additionalContextAnswer },
  cursor: { stdin: true, map: mapCursor, answer: cursorAnswer },
  // Copilot CLI and VS Code agent mode share `.github/hooks/`: one script for both.
  copilot: { stdin: true, map: mapCopilot, answer: copilotAnswer },
  cline: { stdin: true, map: mapCline, answer: clineAnswer },
  // The plugin reads the context as printed and adds it to the message.
  opencode: { stdin: true, map: mapOpenCode },
  augment: { stdin: true, map: mapAugment, answer: additionalContextAnswer },
  // Cascade reads nothing a hook prints.
  windsurf: { stdin: true, runsInProject: true, map: mapWindsurf, answer: () => undefined },
};
