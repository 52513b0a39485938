import { join } from 'node:path';
import { type FileChange, merged, owned, removed, unmerged } from '../../init/files.js';
import { type AgentInstaller, type InstallContext, scopedPath } from '../../init/installer.js';
import { serializeLike } from '../../init/json-file.js';
import { mergeMcp, withoutMcp } from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';
import { userMcp } from '../../init/user-mcp.js';

/**
 * PascalCase names: Copilot CLI then sends its VS Code compatible, Claude-shaped payloads,
 * and VS Code reads the same file. VS Code has no failure or session-end hooks; it skips
 * the names it does not know.
 */
const HOOKS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'ErrorOccurred',
  'PreCompact',
  'Stop',
  'SessionEnd',
] as const;

/** `.github/hooks/` of the project (committed: no path of this machine), or `~/.copilot/hooks/`. */
const hooksFile = scopedPath(
  ['.copilot', 'hooks', 'kiro-learn.json'],
  ['.github', 'hooks', 'kiro-learn.json'],
);

/**
 * The one hook file Copilot CLI and VS Code agent mode both load. `command` is the
 * cross-platform field both read; `timeout` is seconds for both (Copilot CLI's alias of
 * `timeoutSec`).
 */
function copilotHooks(ctx: InstallContext): FileChange {
  const command = ctx.hookCommand('copilot', [], ctx.scope === 'project');
  const timeout = HOOK_TIMEOUT_SECONDS['copilot-cli'];
  const hooks = Object.fromEntries(
    HOOKS.map((event) => [event, [{ type: 'command', command, timeout }]]),
  );
  return owned(
    hooksFile(ctx),
    ctx.show,
    serializeLike({ version: 1, hooks }, null),
    'Copilot CLI and VS Code agent hooks',
  );
}

const uninstallHooks = (ctx: InstallContext) =>
  removed(hooksFile(ctx), ctx.show, 'Copilot CLI and VS Code agent hooks');

/** Copilot CLI's MCP servers: `~/.copilot/mcp-config.json`, each a local command with every tool. */
const copilotCliMcp = userMcp({
  file: (ctx) => join(ctx.home, '.copilot', 'mcp-config.json'),
  merge: (value, { command, args }, shown) =>
    mergeMcp(value, { command, args }, shown, 'mcpServers', {
      type: 'local',
      command,
      args,
      tools: ['*'],
    }),
  note: 'Copilot CLI: its MCP servers are per user: kiro-learn init --global --surface copilot-cli registers kiro-learn for it.',
});

/**
 * GitHub Copilot CLI (and the cloud agent, which runs `.github/hooks/` in its sandbox).
 * Its MCP servers are the user's (`~/.copilot/mcp-config.json`): registered with
 * `--global`.
 */
export const copilotCliInstaller: AgentInstaller = {
  surface: 'copilot-cli',
  title: 'GitHub Copilot CLI',
  detect: (home, onPath, isDir) => onPath('copilot') || isDir(join(home, '.copilot')),
  scripts: () => ['copilot'],
  install: (ctx) => [copilotHooks(ctx), ...copilotCliMcp.install(ctx)],
  uninstall: (ctx) => [...uninstallHooks(ctx), ...copilotCliMcp.uninstall(ctx)],
  notes: copilotCliMcp.notes,
};

/** VS Code agent mode: the same hook file; the MCP server in the workspace's `.vscode/mcp.json`. */
export const vscodeInstaller: AgentInstaller = {
  surface: 'vscode',
  title: 'VS Code agent mode',
  detect: (home, onPath, isDir) => onPath('code') || isDir(join(home, '.vscode')),
  scripts: () => ['copilot'],
  install(ctx) {
    const changes = [copilotHooks(ctx)];
    if (ctx.mcp && ctx.scope === 'project') {
      const { command, args } = ctx.mcpServer(true);
      changes.push(
        merged(
          join(ctx.root, '.vscode', 'mcp.json'),
          ctx.show,
          (value, shown) =>
            mergeMcp(value, { command, args }, shown, 'servers', { type: 'stdio', command, args }),
          'adds the kiro-learn MCP server (machine-independent)',
        ),
      );
    }
    return changes;
  },
  uninstall: (ctx) => [
    ...uninstallHooks(ctx),
    ...(ctx.scope === 'project'
      ? unmerged(
          join(ctx.root, '.vscode', 'mcp.json'),
          ctx.show,
          (value) => withoutMcp(value, 'servers'),
          'removes the kiro-learn MCP server',
        )
      : []),
  ],
  notes: () => [
    'VS Code: agent hooks are a preview; they run once chat.hooks is on where your organization allows it. Memory reaches VS Code at session start and through the MCP tools.',
  ],
};
