import { join } from 'node:path';
import { merged, unmerged } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import {
  claudeGroups,
  mergeClaudeHooks,
  mergeMcp,
  withoutClaudeHooks,
  withoutMcp,
} from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';

/** The hooks kiro-learn registers, with the tool matcher where the hook takes one. */
const HOOKS: Record<string, string | undefined> = {
  SessionStart: undefined,
  UserPromptSubmit: undefined,
  PostToolUse: '*',
  PostToolUseFailure: '*',
  PreCompact: undefined,
  Stop: undefined,
  StopFailure: undefined,
  SessionEnd: undefined,
};

const settingsFile = scopedPath(['.claude', 'settings.json'], ['.claude', 'settings.local.json']);
const mcpFile = scopedPath(['.claude.json'], ['.mcp.json']);

/**
 * Claude Code. Hooks are personal: `.claude/settings.local.json` (git-ignored by
 * convention) for a project, `~/.claude/settings.json` with `--global`; never the
 * committed `.claude/settings.json`, from which an earlier init's hooks are moved. The MCP
 * server goes into the project's `.mcp.json` (committed: no path of this machine in it),
 * or with `--global` into `~/.claude.json` (user scope).
 */
export const claudeCodeInstaller: AgentInstaller = {
  surface: 'claude-code',
  title: 'Claude Code',
  detect: (home, onPath, isDir) => onPath('claude') || isDir(join(home, '.claude')),
  scripts: () => ['claude-code'],
  install(ctx) {
    const command = ctx.hookCommand('claude-code', [], false);
    // A timeout declared on every hook: without one, SessionEnd is cancelled after 1.5 s.
    const groups = claudeGroups(HOOKS, () => ({
      type: 'command',
      command,
      timeout: HOOK_TIMEOUT_SECONDS['claude-code'],
    }));
    const changes = [
      merged(
        settingsFile(ctx),
        ctx.show,
        (value, shown) => mergeClaudeHooks(value, groups, shown),
        ctx.scope === 'global'
          ? 'adds kiro-learn hooks (every project)'
          : 'adds kiro-learn hooks (personal, not committed)',
      ),
    ];
    if (ctx.scope === 'project') {
      changes.push(
        ...unmerged(
          join(ctx.root, '.claude', 'settings.json'),
          ctx.show,
          withoutClaudeHooks,
          'moves kiro-learn hooks out of the committed settings',
        ),
      );
    }
    if (ctx.mcp) {
      const portable = ctx.scope === 'project';
      changes.push(
        merged(
          mcpFile(ctx),
          ctx.show,
          (value, shown) => mergeMcp(value, ctx.mcpServer(portable), shown),
          portable
            ? 'adds the kiro-learn MCP server (machine-independent)'
            : 'adds the kiro-learn MCP server (user scope)',
        ),
      );
    }
    return changes;
  },
  uninstall(ctx) {
    const files =
      ctx.scope === 'global'
        ? [settingsFile(ctx)]
        : [settingsFile(ctx), join(ctx.root, '.claude', 'settings.json')];
    return [
      ...files.flatMap((path) =>
        unmerged(path, ctx.show, withoutClaudeHooks, 'removes kiro-learn hooks'),
      ),
      ...unmerged(mcpFile(ctx), ctx.show, withoutMcp, 'removes the kiro-learn MCP server'),
    ];
  },
  personal: (ctx) => (ctx.scope === 'project' ? [settingsFile(ctx)] : []),
  notes: (ctx) =>
    ctx.scope === 'project'
      ? ['Claude Code: .claude/settings.local.json is personal (git-ignored); commit .mcp.json.']
      : [],
};
