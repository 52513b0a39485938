import { join } from 'node:path';
import { type FileChange, merged, unmerged } from '../../init/files.js';
import type { AgentInstaller, InstallContext } from '../../init/installer.js';
import {
  mergeKiroAgentHooks,
  mergeMcp,
  withoutKiroAgentHooks,
  withoutMcp,
} from '../../init/merge.js';

const HOOKS = [
  'pre_user_prompt',
  'post_read_code',
  'post_write_code',
  'post_run_command',
  'post_mcp_tool_use',
  'post_cascade_response',
] as const;

const hooksFile = (ctx: InstallContext) =>
  ctx.scope === 'global'
    ? join(ctx.home, '.codeium', 'windsurf', 'hooks.json')
    : join(ctx.root, '.windsurf', 'hooks.json');

/**
 * Windsurf Cascade: hooks in `.windsurf/hooks.json` (committed: no path of this machine)
 * or `~/.codeium/windsurf/hooks.json`. Capture only: Cascade adds nothing a hook prints to
 * the conversation, so memory reaches it through the MCP tools (its MCP servers are the
 * user's, `~/.codeium/windsurf/mcp_config.json`: registered with `--global`).
 */
export const windsurfInstaller: AgentInstaller = {
  surface: 'windsurf',
  title: 'Windsurf',
  detect: (home, onPath, isDir) => onPath('windsurf') || isDir(join(home, '.codeium', 'windsurf')),
  scripts: () => ['windsurf'],
  install(ctx) {
    const command = ctx.hookCommand('windsurf', [], ctx.scope === 'project');
    const hooks = Object.fromEntries(
      HOOKS.map((event) => [event, [{ command, show_output: false }]]),
    );
    const changes: FileChange[] = [
      merged(
        hooksFile(ctx),
        ctx.show,
        (value, shown) => mergeKiroAgentHooks(value, hooks, shown),
        'adds kiro-learn hooks (capture only)',
      ),
    ];
    if (ctx.mcp && ctx.scope === 'global') {
      changes.push(
        merged(
          join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json'),
          ctx.show,
          (value, shown) => mergeMcp(value, ctx.mcpServer(false), shown),
          'adds the kiro-learn MCP server (user scope)',
        ),
      );
    }
    return changes;
  },
  uninstall: (ctx) => [
    ...unmerged(hooksFile(ctx), ctx.show, withoutKiroAgentHooks, 'removes kiro-learn hooks'),
    ...(ctx.scope === 'global'
      ? unmerged(
          join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json'),
          ctx.show,
          withoutMcp,
          'removes the kiro-learn MCP server',
        )
      : []),
  ],
  notes: (ctx) =>
    ctx.scope === 'project' && ctx.mcp
      ? [
          'Windsurf: capture only (Cascade reads no context from hooks); its MCP servers are per user: kiro-learn init --global --surface windsurf registers kiro-learn.',
        ]
      : [],
};
