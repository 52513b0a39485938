import { ShimsError } from '../errors.js';
import { isObject } from './json-file.js';

/** Hook commands kiro-learn writes: they run one of its installed hook scripts. */
const OUR_COMMAND = /kiro-learn-(?:kiro|kiro-ide|claude-code)\.[cm]?js|kiro-learn-shim/;

export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && OUR_COMMAND.test(command);
}

/** The MCP server's name in every `mcpServers` map. */
export const MCP_SERVER_NAME = 'kiro-learn';

/** How an agent starts the kiro-learn MCP server. */
export interface McpLaunch {
  /** Program to run. */
  command: string;
  /** Its arguments. */
  args: string[];
}

/** A Claude Code matcher group: `{matcher?, hooks: [{type, command}]}`. */
export type ClaudeGroup = { matcher?: string; hooks: { type: 'command'; command: string }[] };

/** Claude Code settings with kiro-learn's hook groups appended (after removing old ones). */
export function mergeClaudeHooks(
  settings: Record<string, unknown>,
  groups: Record<string, ClaudeGroup>,
  shown: string,
): Record<string, unknown> {
  const base = withoutClaudeHooks(settings);
  if (base['hooks'] !== undefined && !isObject(base['hooks'])) {
    throw new ShimsError(
      'invalid_json',
      `${shown}: "hooks" is not an object; fix it, then run kiro-learn init again`,
    );
  }
  const hooks: Record<string, unknown> = { ...((base['hooks'] as Record<string, unknown>) ?? {}) };
  for (const [event, group] of Object.entries(groups)) {
    const existing = hooks[event] ?? [];
    if (!Array.isArray(existing)) {
      throw new ShimsError(
        'invalid_json',
        `${shown}: "hooks.${event}" is not a list; fix it, then run kiro-learn init again`,
      );
    }
    hooks[event] = [...existing, group];
  }
  return { ...base, hooks };
}

/** Claude Code settings without kiro-learn's hooks; containers it emptied go too. */
export function withoutClaudeHooks(settings: Record<string, unknown>): Record<string, unknown> {
  const hooks = settings['hooks'];
  if (!isObject(hooks)) return settings;
  const next: Record<string, unknown> = { ...hooks };
  let touched = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    let changed = false;
    const kept: unknown[] = [];
    for (const group of groups) {
      const inner = isObject(group) && Array.isArray(group['hooks']) ? group['hooks'] : undefined;
      const left = inner?.filter((hook) => !(isObject(hook) && isOurCommand(hook['command'])));
      if (!inner || !left || left.length === inner.length) {
        kept.push(group);
        continue;
      }
      changed = true;
      if (left.length > 0) kept.push({ ...(group as object), hooks: left });
    }
    if (!changed) continue;
    touched = true;
    if (kept.length > 0) next[event] = kept;
    else delete next[event];
  }
  if (!touched) return settings;
  const out = { ...settings, hooks: next };
  if (Object.keys(next).length === 0) delete (out as Record<string, unknown>)['hooks'];
  return out;
}

/** An MCP config (`.mcp.json`, `.kiro/settings/mcp.json`) with the kiro-learn server set. */
export function mergeMcp(
  config: Record<string, unknown>,
  launch: McpLaunch,
  shown: string,
): Record<string, unknown> {
  const servers = config['mcpServers'] ?? {};
  if (!isObject(servers)) {
    throw new ShimsError(
      'invalid_json',
      `${shown}: "mcpServers" is not an object; fix it, then run kiro-learn init again`,
    );
  }
  return { ...config, mcpServers: { ...servers, [MCP_SERVER_NAME]: { ...launch } } };
}

/** An MCP config without the kiro-learn server; an `mcpServers` it emptied goes too. */
export function withoutMcp(config: Record<string, unknown>): Record<string, unknown> {
  const servers = config['mcpServers'];
  if (!isObject(servers) || !(MCP_SERVER_NAME in servers)) return config;
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  const out: Record<string, unknown> = { ...config, mcpServers: rest };
  if (Object.keys(rest).length === 0) delete out['mcpServers'];
  return out;
}
