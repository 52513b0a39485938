import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type FileChange, merged, owned, removed, unmerged } from '../../init/files.js';
import { type AgentInstaller, type InstallContext, scopedPath } from '../../init/installer.js';
import { readText, serializeLike } from '../../init/json-file.js';
import {
  type KiroAgentHooks,
  mergeKiroAgentHooks,
  mergeMcp,
  withoutKiroAgentHooks,
  withoutMcp,
} from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';

const WORKSPACE_TRIGGERS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop'] as const;
const AGENT_TRIGGERS = ['agentSpawn', 'userPromptSubmit', 'postToolUse', 'stop'] as const;
const LEGACY = [
  ['prompt', 'promptSubmit'],
  ['tool', 'postToolUse'],
  ['stop', 'agentStop'],
] as const;

/** The Kiro CLI agent init writes, for Kiro CLI before v3 (v3 runs the workspace hooks). */
export const KIRO_AGENT_NAME = 'kiro-learn';

/** `.kiro` of the project, or of the home directory with `--global`. */
const kiroDir = scopedPath(['.kiro']);
/** Files in the project's `.kiro/` are committed by teams: no path of this machine in them. */
const portable = (ctx: InstallContext) => ctx.scope === 'project';

/** Kiro CLI ≥ 3 runs v1 workspace hooks: agent hooks as well would fire twice. */
const cliRunsWorkspaceHooks = (ctx: InstallContext) => (ctx.kiroCliMajor ?? 0) >= 3;

function workspaceHooks(ctx: InstallContext): FileChange {
  // Which agent runs them is not in their payloads: the command says so.
  const args = ctx.surfaces.includes('kiro-ide') ? ['kiro-ide'] : [];
  const hooks = WORKSPACE_TRIGGERS.map((trigger) => ({
    name: `kiro-learn-${trigger.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase())}`,
    trigger,
    ...(trigger === 'PostToolUse' ? { matcher: '.*' } : {}),
    action: { type: 'command', command: ctx.hookCommand('kiro', args, portable(ctx)) },
    timeout: HOOK_TIMEOUT_SECONDS['kiro-ide'],
    enabled: true,
  }));
  return owned(
    join(kiroDir(ctx), 'hooks', 'kiro-learn.json'),
    ctx.show,
    serializeLike({ version: 'v1', hooks }, null),
    'Kiro workspace hooks (v1)',
  );
}

function agentHooks(ctx: InstallContext): KiroAgentHooks {
  const command = ctx.hookCommand('kiro', [], portable(ctx));
  // Agent-config hooks take their timeout in milliseconds (`timeout_ms`).
  const timeout_ms = (HOOK_TIMEOUT_SECONDS['kiro-cli'] ?? 10) * 1000;
  return Object.fromEntries(
    AGENT_TRIGGERS.map((trigger) => [
      trigger,
      [trigger === 'postToolUse' ? { matcher: '*', command, timeout_ms } : { command, timeout_ms }],
    ]),
  );
}

function mcpChange(ctx: InstallContext): FileChange[] {
  if (!ctx.mcp) return [];
  return [
    merged(
      join(kiroDir(ctx), 'settings', 'mcp.json'),
      ctx.show,
      (value, shown) => mergeMcp(value, ctx.mcpServer(portable(ctx)), shown),
      'adds the kiro-learn MCP server',
    ),
  ];
}

/** Kiro IDE ≥ 1.0: v1 workspace hooks; 0.x `.kiro.hook` files with `--legacy-ide`. */
export const kiroIdeInstaller: AgentInstaller = {
  surface: 'kiro-ide',
  title: 'Kiro IDE',
  detect: (home, onPath, isDir) => onPath('kiro') || isDir(join(home, '.kiro')),
  scripts: (ctx) => (ctx.legacyIde && ctx.scope === 'project' ? ['kiro', 'kiro-ide'] : ['kiro']),
  install(ctx) {
    const changes = [workspaceHooks(ctx)];
    if (ctx.legacyIde && ctx.scope === 'project') {
      for (const [event, trigger] of LEGACY) {
        const hook = {
          enabled: true,
          name: `kiro-learn ${event}`,
          description: `Sends ${trigger} to kiro-learn`,
          version: '1',
          // Tool hooks need their tool types, or the IDE never runs them.
          when: trigger === 'postToolUse' ? { type: trigger, toolTypes: ['*'] } : { type: trigger },
          // biome-ignore lint/suspicious/noThenProperty: the .kiro.hook format names it so
          then: {
            type: 'runCommand',
            command: ctx.hookCommand('kiro-ide', [event], portable(ctx)),
          },
        };
        changes.push(
          owned(
            join(kiroDir(ctx), 'hooks', `kiro-learn-${event}.kiro.hook`),
            ctx.show,
            serializeLike(hook, null),
            `legacy Kiro IDE ${trigger} hook`,
          ),
        );
      }
    }
    return [...changes, ...mcpChange(ctx)];
  },
  uninstall: uninstallKiro,
};

/**
 * Kiro CLI. Before v3 its hooks live in agent configs: init writes a `kiro-learn` agent
 * (the default tools and context files, the MCP server from `mcp.json`, so it is
 * registered once) and, with `--kiro-agent NAME`, adds the hooks to the user's own agents.
 * Kiro CLI v3 runs the v1 workspace hooks, so then only those are written.
 */
export const kiroCliInstaller: AgentInstaller = {
  surface: 'kiro-cli',
  title: 'Kiro CLI',
  detect: (_home, onPath) => onPath('kiro-cli') || onPath('q'),
  scripts: () => ['kiro'],
  install(ctx) {
    if (cliRunsWorkspaceHooks(ctx)) return [workspaceHooks(ctx), ...mcpChange(ctx)];
    const agent = {
      name: KIRO_AGENT_NAME,
      description:
        'The default tools plus kiro-learn memory: hooks record each turn and add relevant memory.',
      prompt: null,
      tools: ['*'],
      // Reading memory needs no approval; saving and forgetting still ask.
      allowedTools: [
        '@kiro-learn/search_memory',
        '@kiro-learn/get_memories',
        '@kiro-learn/timeline',
        '@kiro-learn/get_event',
      ],
      resources: ['file://AGENTS.md', 'file://README.md', 'file://.kiro/steering/**/*.md'],
      hooks: agentHooks(ctx),
      includeMcpJson: true,
    };
    const changes = [
      owned(
        join(kiroDir(ctx), 'agents', `${KIRO_AGENT_NAME}.json`),
        ctx.show,
        serializeLike(agent, null),
        `Kiro CLI agent "${KIRO_AGENT_NAME}"`,
      ),
    ];
    for (const name of ctx.kiroAgents ?? []) {
      changes.push(
        merged(
          join(kiroDir(ctx), 'agents', `${name}.json`),
          ctx.show,
          (value, shown) => mergeKiroAgentHooks(value, agentHooks(ctx), shown),
          `adds kiro-learn hooks to your Kiro CLI agent "${name}"`,
        ),
      );
    }
    return [...changes, ...mcpChange(ctx)];
  },
  uninstall: uninstallKiro,
  notes(ctx) {
    if (cliRunsWorkspaceHooks(ctx))
      return ['Kiro CLI v3 runs the workspace hooks: nothing to select.'];
    const own = (ctx.kiroAgents ?? []).map((name) => `"${name}"`).join(', ');
    return [
      `Kiro CLI: the hooks run in the "${KIRO_AGENT_NAME}" agent: start it with kiro-cli chat --agent ${KIRO_AGENT_NAME}, ` +
        `or make it your default: kiro-cli settings chat.defaultAgent ${KIRO_AGENT_NAME}` +
        (own
          ? ` (your agents ${own} have the hooks too).`
          : '; or add the hooks to your own agent: kiro-learn init --kiro-agent NAME.'),
    ];
  },
};

function uninstallKiro(ctx: InstallContext): FileChange[] {
  const dir = kiroDir(ctx);
  const changes = [
    ...removed(join(dir, 'hooks', 'kiro-learn.json'), ctx.show, 'Kiro workspace hooks'),
    ...removed(
      join(dir, 'agents', `${KIRO_AGENT_NAME}.json`),
      ctx.show,
      `Kiro CLI agent "${KIRO_AGENT_NAME}"`,
    ),
    ...LEGACY.flatMap(([event]) =>
      removed(
        join(dir, 'hooks', `kiro-learn-${event}.kiro.hook`),
        ctx.show,
        'legacy Kiro IDE hook',
      ),
    ),
  ];
  let agents: string[] = [];
  try {
    agents = readdirSync(join(dir, 'agents')).filter(
      (name) => name.endsWith('.json') && name !== `${KIRO_AGENT_NAME}.json`,
    );
  } catch {
    // no agents
  }
  for (const name of agents) {
    // Only agents that mention kiro-learn: someone else's broken file is not ours to judge.
    if (!readText(join(dir, 'agents', name))?.includes('kiro-learn')) continue;
    changes.push(
      ...unmerged(
        join(dir, 'agents', name),
        ctx.show,
        withoutKiroAgentHooks,
        'removes kiro-learn hooks',
      ),
    );
  }
  changes.push(
    ...unmerged(
      join(dir, 'settings', 'mcp.json'),
      ctx.show,
      withoutMcp,
      'removes the kiro-learn MCP server',
    ),
  );
  return changes;
}
