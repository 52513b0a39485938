import { type Loose, type MapInput, type MapResult, skip, str } from '../../hook.js';
import { hooksOf, isOwnMcpTool, namedFrame, noHookName } from '../shared.js';
import type { KiroPostToolUse, KiroPrompt, KiroStop } from './payload.js';

/**
 * Kiro CLI agent-config hooks and v1 workspace hooks share one script: the payload tells
 * the hook apart, and the mapping is the same. Which agent ran it is not in the payload:
 * the command `init` wrote names it (`kiro.cjs kiro-ide` for workspace hooks it installed
 * for the IDE); without one it is Kiro CLI.
 */
export function mapKiro({ payload, args }: Pick<MapInput, 'payload' | 'args'>): MapResult {
  const frame = namedFrame(args[0] === 'kiro-ide' ? 'kiro-ide' : 'kiro-cli', payload);
  if (!frame) return noHookName();
  const h = hooksOf(frame);
  switch (frame.name.toLowerCase()) {
    case 'agentspawn':
    case 'sessionstart':
      return h.sessionStart();
    case 'userpromptsubmit':
      // Kiro IDE 1.0 sends empty prompts: nothing to record and nothing to search for.
      return h.prompt(str((payload as Loose<KiroPrompt>).prompt));
    case 'posttooluse': {
      const p = payload as Loose<KiroPostToolUse>;
      const tool = str(p.tool_name);
      const emptySubagent =
        tool?.startsWith('subagent_') &&
        !isOwnMcpTool(tool) &&
        isEmpty(p.tool_input) &&
        isEmpty(p.tool_response) &&
        isEmpty(p.subagent_response);
      return emptySubagent ? skip(`${tool} carries nothing`) : h.tool(payload);
    }
    case 'stop':
      return h.turnEnd(str((payload as Loose<KiroStop>).assistant_response));
    default:
      return skip(`hook ${frame.name} is not recorded`);
  }
}

/** Missing, null, blank text, or an object or list with nothing in it. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
