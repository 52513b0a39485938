import { join } from 'node:path';
import { type FileChange, merged, owned, removed, unmerged } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import { mergeMcp, withoutMcp } from '../../init/merge.js';
import { openCodePlugin } from './plugin.js';

const pluginFile = scopedPath(
  ['.config', 'opencode', 'plugins', 'kiro-learn.js'],
  ['.opencode', 'plugins', 'kiro-learn.js'],
);

const configFile = scopedPath(['.config', 'opencode', 'opencode.json'], ['opencode.json']);

/**
 * OpenCode: a plugin file (`.opencode/plugins/kiro-learn.js`, loaded at start-up; no path
 * of this machine in it, so a team can commit it) that runs the hook command for the
 * events kiro-learn records, and the MCP server in `opencode.json` (key `mcp`).
 */
export const openCodeInstaller: AgentInstaller = {
  surface: 'opencode',
  title: 'OpenCode',
  detect: (home, onPath, isDir) => onPath('opencode') || isDir(join(home, '.config', 'opencode')),
  scripts: () => ['opencode'],
  install(ctx) {
    const portable = ctx.scope === 'project';
    const changes: FileChange[] = [
      owned(
        pluginFile(ctx),
        ctx.show,
        openCodePlugin(ctx.hookCommand('opencode', [], portable)),
        'OpenCode plugin: records turns, adds memory to prompts',
      ),
    ];
    if (ctx.mcp) {
      const { command, args } = ctx.mcpServer(portable);
      changes.push(
        merged(
          configFile(ctx),
          ctx.show,
          (value, shown) =>
            mergeMcp(value, { command, args }, shown, 'mcp', {
              type: 'local',
              command: [command, ...args],
              enabled: true,
            }),
          'adds the kiro-learn MCP server',
        ),
      );
    }
    return changes;
  },
  uninstall: (ctx) => [
    ...removed(pluginFile(ctx), ctx.show, 'OpenCode plugin'),
    ...unmerged(
      configFile(ctx),
      ctx.show,
      (value) => withoutMcp(value, 'mcp'),
      'removes the kiro-learn MCP server',
    ),
  ],
};
