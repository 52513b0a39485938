import { join } from 'node:path';
import { merged, unmerged } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import { claudeGroups, mergeHooksAndMcp, withoutHooksAndMcp } from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';

const HOOKS: Record<string, string | undefined> = {
  SessionStart: undefined,
  BeforeAgent: undefined,
  AfterTool: '.*',
  AfterAgent: undefined,
  PreCompress: undefined,
  SessionEnd: undefined,
};

const settingsFile = scopedPath(['.gemini', 'settings.json']);

/**
 * Gemini CLI: hooks and the MCP server in `.gemini/settings.json` (the project's, which
 * teams commit: no path of this machine) or `~/.gemini/settings.json`.
 */
export const geminiInstaller: AgentInstaller = {
  surface: 'gemini-cli',
  title: 'Gemini CLI',
  detect: (home, onPath, isDir) => onPath('gemini') || isDir(join(home, '.gemini')),
  scripts: () => ['gemini-cli'],
  install(ctx) {
    const portable = ctx.scope === 'project';
    const command = ctx.hookCommand('gemini-cli', [], portable);
    const groups = claudeGroups(HOOKS, () => ({
      type: 'command',
      command,
      name: 'kiro-learn',
      // Gemini CLI's timeout is in milliseconds.
      timeout: (HOOK_TIMEOUT_SECONDS['gemini-cli'] ?? 10) * 1000,
    }));
    return [
      merged(
        settingsFile(ctx),
        ctx.show,
        mergeHooksAndMcp(groups, ctx.mcp ? ctx.mcpServer(portable) : undefined),
        ctx.mcp ? 'adds kiro-learn hooks and the MCP server' : 'adds kiro-learn hooks',
      ),
    ];
  },
  uninstall: (ctx) =>
    unmerged(
      settingsFile(ctx),
      ctx.show,
      withoutHooksAndMcp,
      'removes kiro-learn hooks and the MCP server',
    ),
};
