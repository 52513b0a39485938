import type { HookEvent, MapInput, MapResult, ShimSurface } from '../hook.js';
import { mapClaudeCode } from './claude-code/map.js';
import { additionalContextAnswer } from './claude-shaped.js';
import { mapCodex } from './codex/map.js';
import { cursorAnswer, mapCursor } from './cursor/map.js';
import { mapGemini } from './gemini-cli/map.js';
import { mapKiro } from './kiro/map.js';
import { mapKiroIde } from './kiro-ide-legacy/map.js';

/** What one hook script does with its input: where the payload comes from and how it maps. */
export interface HookEntry {
  /** The payload is JSON on stdin (false: legacy Kiro IDE, whose stdin never closes). */
  stdin: boolean;
  /** Payload → the event to record, or why nothing is. */
  map(input: MapInput): MapResult;
  /**
   * What the hook prints, on every path (also when nothing was recorded): for agents that
   * parse a hook's stdout. Default: the context as plain text, nothing without one.
   */
  answer?(hook: HookEvent | undefined, context: string | undefined): string | undefined;
}

/** Each hook script's agent module. Adding an agent adds one line here. */
export const HOOK_ENTRIES: Record<ShimSurface, HookEntry> = {
  kiro: { stdin: true, map: mapKiro },
  'kiro-ide': { stdin: false, map: mapKiroIde },
  'claude-code': { stdin: true, map: mapClaudeCode },
  // Both parse what a hook prints: JSON, always.
  codex: { stdin: true, map: mapCodex, answer: additionalContextAnswer },
  'gemini-cli': { stdin: true, map: mapGemini, answer: additionalContextAnswer },
  cursor: { stdin: true, map: mapCursor, answer: cursorAnswer },
};
