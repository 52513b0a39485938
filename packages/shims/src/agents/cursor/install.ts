import { join } from 'node:path';
import { type FileChange, merged, unmerged } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import {
  mergeKiroAgentHooks,
  mergeMcp,
  withoutKiroAgentHooks,
  withoutMcp,
} from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';

/**
 * Every tool reports through `postToolUse` / `postToolUseFailure` (shell commands, reads,
 * searches, edits, MCP tools): the per-kind hooks (`afterShellExecution`, …) would record
 * each tool twice.
 */
const HOOKS = [
  'sessionStart',
  'beforeSubmitPrompt',
  'postToolUse',
  'postToolUseFailure',
  'afterAgentResponse',
  'stop',
  'preCompact',
  'sessionEnd',
] as const;

const cursorDir = scopedPath(['.cursor']);

/**
 * Cursor: hooks in `.cursor/hooks.json` (`{"version": 1, "hooks": {…}}`; the project's is
 * committed: no path of this machine) or `~/.cursor/hooks.json`, the MCP server in the
 * `mcp.json` beside it.
 */
export const cursorInstaller: AgentInstaller = {
  surface: 'cursor',
  title: 'Cursor',
  detect: (home, onPath, isDir) =>
    onPath('cursor') || onPath('cursor-agent') || isDir(join(home, '.cursor')),
  scripts: () => ['cursor'],
  install(ctx) {
    const portable = ctx.scope === 'project';
    const command = ctx.hookCommand('cursor', [], portable);
    const timeout = HOOK_TIMEOUT_SECONDS.cursor;
    const hooks = Object.fromEntries(HOOKS.map((event) => [event, [{ command, timeout }]]));
    const changes: FileChange[] = [
      merged(
        join(cursorDir(ctx), 'hooks.json'),
        ctx.show,
        (value, shown) => ({ version: 1, ...mergeKiroAgentHooks(value, hooks, shown) }),
        'adds kiro-learn hooks',
      ),
    ];
    if (ctx.mcp) {
      changes.push(
        merged(
          join(cursorDir(ctx), 'mcp.json'),
          ctx.show,
          (value, shown) => mergeMcp(value, ctx.mcpServer(portable), shown),
          'adds the kiro-learn MCP server',
        ),
      );
    }
    return changes;
  },
  uninstall: (ctx) => [
    // `version` stays unless nothing else is left: then the file goes.
    ...unmerged(
      join(cursorDir(ctx), 'hooks.json'),
      ctx.show,
      (value) => {
        const left = withoutKiroAgentHooks(value);
        const { version: _version, ...rest } = left;
        return Object.keys(rest).length === 0 ? {} : left;
      },
      'removes kiro-learn hooks',
    ),
    ...unmerged(
      join(cursorDir(ctx), 'mcp.json'),
      ctx.show,
      withoutMcp,
      'removes the kiro-learn MCP server',
    ),
  ],
};
