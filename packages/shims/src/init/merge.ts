import { ShimsError } from '../errors.js';
import { isObject } from './json-file.js';

/**
 * Hook commands kiro-learn writes: they run its hook launcher, or (written by earlier
 * versions) one of its hook scripts directly.
 */
const OUR_COMMAND = /kiro-learn-hook\b|kiro-learn-[a-z-]+\.(?:[cm]?js|sh)\b|kiro-learn-shim/;

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
  /** The version of the Node it runs on, when `command` is a Node: on Node < 22 the
   * launcher moves NODE_EXTRA_CA_CERTS aside, as the hook launcher does. */
  nodeVersion?: string;
}

/** A Claude Code matcher group: `{matcher?, hooks: [{type, command}]}`. */
export type ClaudeGroup = {
  matcher?: string;
  hooks: {
    type: 'command';
    command: string;
    name?: string;
    timeout?: number;
    metadata?: Record<string, unknown>;
  }[];
};

/** One kiro-learn hook of a Claude-style group. */
export type ClaudeHook = ClaudeGroup['hooks'][number];

/**
 * Claude-style groups for kiro-learn's hooks: one group an event, with the event's
 * matcher (`undefined`: none) and `hook(event)` as its one hook.
 */
export function claudeGroups(
  events: Readonly<Record<string, string | undefined>>,
  hook: (event: string) => ClaudeHook,
): Record<string, ClaudeGroup> {
  return Object.fromEntries(
    Object.entries(events).map(([event, matcher]): [string, ClaudeGroup] => [
      event,
      { ...(matcher ? { matcher } : {}), hooks: [hook(event)] },
    ]),
  );
}

/**
 * A settings file that holds both the hooks and the MCP servers (Gemini CLI, Augment):
 * kiro-learn's hook groups merged in, and the server when `mcp` is given.
 */
export const mergeHooksAndMcp =
  (groups: Record<string, ClaudeGroup>, mcp: McpLaunch | undefined) =>
  (settings: Record<string, unknown>, shown: string): Record<string, unknown> => {
    const withHooks = mergeClaudeHooks(settings, groups, shown);
    return mcp ? mergeMcp(withHooks, mcp, shown) : withHooks;
  };

/** Such a settings file without kiro-learn's hooks and MCP server. */
export const withoutHooksAndMcp = (settings: Record<string, unknown>): Record<string, unknown> =>
  withoutMcp(withoutClaudeHooks(settings));

/** Claude Code settings with kiro-learn's hook groups appended (after removing old ones). */
export function mergeClaudeHooks(
  settings: Record<string, unknown>,
  groups: Record<string, ClaudeGroup>,
  shown: string,
): Record<string, unknown> {
  const add = Object.fromEntries(Object.entries(groups).map(([event, group]) => [event, [group]]));
  return appendHooks(withoutClaudeHooks(settings), add, shown);
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

/**
 * An MCP config (`.mcp.json`, `.kiro/settings/mcp.json`) with the kiro-learn server set.
 * `key` is the map the agent keeps servers in (`mcpServers`; VS Code `servers`, OpenCode
 * `mcp`), `entry` the agent's form of the server (default: the launch as it is).
 */
export function mergeMcp(
  config: Record<string, unknown>,
  launch: McpLaunch,
  shown: string,
  key = 'mcpServers',
  entry: Record<string, unknown> = { ...launch },
): Record<string, unknown> {
  const servers = config[key] ?? {};
  if (!isObject(servers)) {
    throw new ShimsError(
      'invalid_json',
      `${shown}: "${key}" is not an object; fix it, then run kiro-learn init again`,
    );
  }
  return { ...config, [key]: { ...servers, [MCP_SERVER_NAME]: entry } };
}

/** An MCP config without the kiro-learn server; a server map it emptied goes too. */
export function withoutMcp(
  config: Record<string, unknown>,
  key = 'mcpServers',
): Record<string, unknown> {
  const servers = config[key];
  if (!isObject(servers) || !(MCP_SERVER_NAME in servers)) return config;
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  const out: Record<string, unknown> = { ...config, [key]: rest };
  if (Object.keys(rest).length === 0) delete out[key];
  return out;
}

/** Kiro CLI agent-config hooks: `{hooks: {<trigger>: [{matcher?, command}]}}`. */
export type KiroAgentHooks = Record<
  string,
  ({ matcher?: string; command: string } & Record<string, unknown>)[]
>;

/** A Kiro CLI agent config with kiro-learn's hooks added (after removing old ones). */
export function mergeKiroAgentHooks(
  agent: Record<string, unknown>,
  add: KiroAgentHooks,
  shown: string,
): Record<string, unknown> {
  return appendHooks(withoutKiroAgentHooks(agent), add, shown);
}

/**
 * `base` with each list of `add` appended to its `hooks.<key>` list (a new list when there
 * is none). A `hooks` that is not an object, or a `hooks.<key>` that is not a list, is the
 * user's to fix: nothing is guessed.
 */
function appendHooks(
  base: Record<string, unknown>,
  add: Readonly<Record<string, readonly unknown[]>>,
  shown: string,
): Record<string, unknown> {
  if (base['hooks'] !== undefined && !isObject(base['hooks'])) {
    throw new ShimsError(
      'invalid_json',
      `${shown}: "hooks" is not an object; fix it, then run kiro-learn init again`,
    );
  }
  const hooks: Record<string, unknown> = { ...((base['hooks'] as Record<string, unknown>) ?? {}) };
  for (const [key, entries] of Object.entries(add)) {
    const existing = hooks[key] ?? [];
    if (!Array.isArray(existing)) {
      throw new ShimsError(
        'invalid_json',
        `${shown}: "hooks.${key}" is not a list; fix it, then run kiro-learn init again`,
      );
    }
    hooks[key] = [...existing, ...entries];
  }
  return { ...base, hooks };
}

/** A Kiro CLI agent config without kiro-learn's hooks; lists and `hooks` it emptied go too. */
export function withoutKiroAgentHooks(agent: Record<string, unknown>): Record<string, unknown> {
  const hooks = agent['hooks'];
  if (!isObject(hooks)) return agent;
  const next: Record<string, unknown> = {};
  let touched = false;
  for (const [trigger, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) {
      next[trigger] = entries;
      continue;
    }
    const kept = entries.filter((entry) => !(isObject(entry) && isOurCommand(entry['command'])));
    if (kept.length !== entries.length) touched = true;
    if (kept.length > 0 || kept.length === entries.length) next[trigger] = kept;
  }
  if (!touched) return agent;
  const out: Record<string, unknown> = { ...agent, hooks: next };
  if (Object.keys(next).length === 0) delete out['hooks'];
  return out;
}
