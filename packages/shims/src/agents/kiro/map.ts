import { type MapInput, type MapResult, skip, str } from '../../hook.js';
import { type ClaudeShapedHook, mapNamed, on } from '../claude-shaped.js';
import { isOwnMcpTool } from '../shared.js';

/** Kiro IDE 1.x reports `subagent_*` tool shells that carry nothing. */
const postToolUse: ClaudeShapedHook = (h, payload) => {
  const tool = str(payload['tool_name']);
  const emptySubagent =
    tool?.startsWith('subagent_') &&
    !isOwnMcpTool(tool) &&
    isEmpty(payload['tool_input']) &&
    isEmpty(payload['tool_response']) &&
    isEmpty(payload['subagent_response']);
  return emptySubagent ? skip(`${tool} carries nothing`) : h.tool(payload);
};

/**
 * Kiro's hooks by lower-cased name: agent-config hooks are camelCase (`agentSpawn`,
 * `userPromptSubmit`), v1 workspace hooks PascalCase (`SessionStart`, `UserPromptSubmit`).
 * Kiro IDE 1.0 sends empty prompts: nothing to record and nothing to search for.
 */
const KIRO_HOOKS = {
  agentspawn: on.sessionStart,
  sessionstart: on.sessionStart,
  userpromptsubmit: on.prompt,
  posttooluse: postToolUse,
  stop: on.answerIn('assistant_response'),
};

/**
 * Kiro CLI agent-config hooks and v1 workspace hooks share one script: the payload tells
 * the hook apart, and the mapping is the same. Which agent ran it is not in the payload:
 * the command `init` wrote names it (`kiro.cjs kiro-ide` for workspace hooks it installed
 * for the IDE); without one it is Kiro CLI.
 */
export function mapKiro({ payload, args }: Pick<MapInput, 'payload' | 'args'>): MapResult {
  const surface = args[0] === 'kiro-ide' ? 'kiro-ide' : 'kiro-cli';
  return mapNamed(surface, KIRO_HOOKS, payload, (name) => name.toLowerCase());
}

/** Missing, null, blank text, or an object or list with nothing in it. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
