import { type MapInput, type MapResult, str } from '../../hook.js';
import { type ClaudeShapedHook, claudeShaped, on } from '../claude-shaped.js';

/** A bash tool's `metadata.exit` is its exit code: a non-zero one is a failure to remember. */
const toolExecuteAfter: ClaudeShapedHook = (h, p) => {
  const response = (p['tool_response'] ?? {}) as Record<string, unknown>;
  const meta = (response['metadata'] ?? {}) as Record<string, unknown>;
  const exit = meta['exit'];
  return h.tool(
    p,
    typeof exit === 'number' ? { ...response, exit_code: exit, success: exit === 0 } : response,
  );
};

const sessionError: ClaudeShapedHook = (h, p) => {
  const error = (p['error'] ?? {}) as Record<string, unknown>;
  return h.turnFailed(str(error['name']), str(error['message']));
};

/**
 * A session starts. The plugin cannot hand OpenCode context before the first message, and
 * drops what this hook prints: no overview is asked for, so none is counted as shown and
 * the first prompt's own context is whole.
 */
const sessionCreated: ClaudeShapedHook = (h) =>
  h.hook({ kind: 'note', body: { type: 'json', data: { hook: 'session.created' } } });

/**
 * OpenCode, through kiro-learn's plugin: the plugin's events arrive Claude-shaped (it
 * builds the payloads), under OpenCode's event names. `session.idle` ends the turn; its
 * answer is rebuilt from the turn's events.
 */
export const mapOpenCode: (input: Pick<MapInput, 'payload'>) => MapResult = claudeShaped(
  'opencode',
  {
    'session.created': sessionCreated,
    'chat.message': on.prompt,
    'tool.execute.after': toolExecuteAfter,
    'session.idle': on.turnBoundary,
    'session.error': sessionError,
    'session.compacted': on.compaction,
  },
);
