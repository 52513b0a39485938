import type { Surface } from '@kiro-learn/schema';
import {
  type HookEvent,
  type Loose,
  type MapInput,
  type MapResult,
  skip,
  str,
} from '../../hook.js';
import { skipOwnTool, summaryBody, toolBody } from '../shared.js';
import type { KiroPostToolUse, KiroPrompt, KiroStop } from './payload.js';

/**
 * Kiro CLI agent-config hooks and v1 workspace hooks share one script: the payload tells
 * the hook apart, and the mapping is the same. Which agent ran it is not in the payload:
 * the command `init` wrote names it (`kiro.cjs kiro-ide` for workspace hooks it installed
 * for the IDE); without one it is Kiro CLI.
 */
export function mapKiro({ payload, args }: Pick<MapInput, 'payload' | 'args'>): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return skip('the payload has no hook_event_name', true);
  const surface: Surface = args[0] === 'kiro-ide' ? 'kiro-ide' : 'kiro-cli';
  const base = {
    surface,
    hook: name,
    ...(str(payload['cwd']) ? { cwd: str(payload['cwd'])! } : {}),
    ...(str(payload['session_id']) ? { sessionId: str(payload['session_id'])! } : {}),
    startsSession: false,
    retrieve: false,
  };
  const hook = (rest: Pick<HookEvent, 'kind' | 'body'> & Partial<HookEvent>): MapResult => ({
    hook: { ...base, ...rest },
  });
  switch (name.toLowerCase()) {
    case 'agentspawn':
    case 'sessionstart':
      return hook({
        kind: 'note',
        body: { type: 'json', data: { hook: name } },
        startsSession: true,
      });
    case 'userpromptsubmit': {
      const prompt = str((payload as Loose<KiroPrompt>).prompt);
      // Kiro IDE 1.0 sends empty prompts: nothing to record and nothing to search for.
      if (!prompt?.trim()) return skip('empty prompt');
      return hook({ kind: 'prompt', body: { type: 'text', content: prompt }, retrieve: true });
    }
    case 'posttooluse': {
      const p = payload as Loose<KiroPostToolUse>;
      const tool = str(p.tool_name);
      const own = skipOwnTool(tool);
      if (own) return own;
      if (
        tool?.startsWith('subagent_') &&
        isEmpty(p.tool_input) &&
        isEmpty(p.tool_response) &&
        isEmpty(p.subagent_response)
      ) {
        return skip(`${tool} carries nothing`);
      }
      return hook({ kind: 'tool_use', body: toolBody(payload) });
    }
    case 'stop':
      return hook({
        kind: 'session_summary',
        body: summaryBody(str((payload as Loose<KiroStop>).assistant_response)),
      });
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

/** Missing, null, blank text, or an object or list with nothing in it. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
