/**
 * @kiro-learn/shims/agents: each agent's hook mapping, payload → the event to record,
 * and what the hook answers. The one mapping implementation: the hook scripts bundle it,
 * and the collector imports it from here (no installers, no spool, no file system).
 */

// What a mapping returns, and the wire Event built from it.
export { buildEvent, type EventContext } from '../event.js';
export {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  type Payload,
  SHIM_SURFACES,
  type ShimSurface,
} from '../hook.js';
export { mapAugment } from './augment/map.js';
export type * from './augment/payload.js';
export { mapClaudeCode } from './claude-code/map.js';
export type * from './claude-code/payload.js';
export { lastAssistantText } from './claude-code/transcript.js';
// The format Claude Code set and most agents copy: one table of hooks per agent.
export {
  additionalContextAnswer,
  type ClaudeShapedHook,
  type ClaudeShapedHooks,
  claudeShaped,
  dispatch,
  type FrameHooks,
  mapNamed,
  on,
} from './claude-shaped.js';
export { clineAnswer, mapCline } from './cline/map.js';
export type * from './cline/payload.js';
export { mapCodex } from './codex/map.js';
export type * from './codex/payload.js';
export { copilotAnswer, isCopilotPayload, mapCopilot } from './copilot/map.js';
export type * from './copilot/payload.js';
export { cursorAnswer, isCursorPayload, mapCursor } from './cursor/map.js';
export type * from './cursor/payload.js';
export { HOOK_ENTRIES, type HookAnswer, type HookEntry } from './entries.js';
export { mapGemini } from './gemini-cli/map.js';
export type * from './gemini-cli/payload.js';
export { mapKiro } from './kiro/map.js';
export type * from './kiro/payload.js';
export { mapKiroIde } from './kiro-ide-legacy/map.js';
export type * from './kiro-ide-legacy/payload.js';
export { mapOpenCode } from './opencode/map.js';
export type * from './opencode/payload.js';
export { isOwnMcpTool } from './shared.js';
export { mapWindsurf } from './windsurf/map.js';
export type * from './windsurf/payload.js';
