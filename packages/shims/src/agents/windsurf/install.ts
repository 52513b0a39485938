import { join } from 'node:path';
import { type FileChange, merged, unmerged } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import { mergeKiroAgentHooks, mergeMcp, withoutKiroAgentHooks } from '../../init/merge.js';
import { userMcp } from '../../init/user-mcp.js';

const HOOKS = [
  'pre_user_prompt',
  'post_read_code',
  'post_write_code',
  'post_run_command',
  'post_mcp_tool_use',
  'post_cascade_response',
] as const;

const hooksFile = scopedPath(['.codeium', 'windsurf', 'hooks.json'], ['.windsurf', 'hooks.json']);

/** Windsurf's MCP servers: the user's `~/.codeium/windsurf/mcp_config.json`. */
const windsurfMcp = userMcp({
  file: (ctx) => join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json'),
  merge: mergeMcp,
  note: 'Windsurf: capture only (Cascade reads no context from hooks); its MCP servers are per user: kiro-learn init --global --surface windsurf registers kiro-learn.',
});

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
    return [...changes, ...windsurfMcp.install(ctx)];
  },
  uninstall: (ctx) => [
    ...unmerged(hooksFile(ctx), ctx.show, withoutKiroAgentHooks, 'removes kiro-learn hooks'),
    ...windsurfMcp.uninstall(ctx),
  ],
  notes: windsurfMcp.notes,
};
