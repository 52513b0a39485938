import type { MapInput, MapResult, ShimSurface } from '../hook.js';
import { mapClaudeCode } from './claude-code/map.js';
import { mapKiro } from './kiro/map.js';
import { mapKiroIde } from './kiro-ide-legacy/map.js';

/** What one hook script does with its input: where the payload comes from and how it maps. */
export interface HookEntry {
  /** The payload is JSON on stdin (false: legacy Kiro IDE, whose stdin never closes). */
  stdin: boolean;
  /** Payload → the event to record, or why nothing is. */
  map(input: MapInput): MapResult;
}

/** Each hook script's agent module. Adding an agent adds one line here. */
export const HOOK_ENTRIES: Record<ShimSurface, HookEntry> = {
  kiro: { stdin: true, map: mapKiro },
  'kiro-ide': { stdin: false, map: mapKiroIde },
  'claude-code': { stdin: true, map: mapClaudeCode },
};
