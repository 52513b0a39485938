import { join } from 'node:path';
import { type FileChange, merged, owned, unmerged } from '../../init/files.js';
import { type AgentInstaller, type InstallContext, scopedPath } from '../../init/installer.js';
import { claudeGroups, mergeHooksAndMcp, withoutHooksAndMcp } from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';

const HOOKS: Record<string, string | undefined> = {
  SessionStart: undefined,
  PostToolUse: '.*',
  Stop: undefined,
  SessionEnd: undefined,
};

const settingsFile = scopedPath(['.augment', 'settings.json'], ['.augment', 'settings.local.json']);

/** Augment runs a hook's `command` as a `.sh` file: this one runs the launcher beside it. */
const scriptFile = (ctx: InstallContext) => join(ctx.data, 'bin', 'kiro-learn-augment.sh');

/**
 * Augment (Auggie CLI; its IDE extensions read `~/.augment/settings.json`): Claude-style
 * hooks in `.augment/settings.local.json` (personal: this machine's path to the hook
 * script) or `~/.augment/settings.json`, with the MCP server beside them.
 */
export const augmentInstaller: AgentInstaller = {
  surface: 'augment',
  title: 'Augment',
  detect: (home, onPath, isDir) => onPath('auggie') || isDir(join(home, '.augment')),
  scripts: () => ['augment'],
  install(ctx) {
    const script = scriptFile(ctx);
    const timeout = (HOOK_TIMEOUT_SECONDS.augment ?? 10) * 1000; // milliseconds
    const groups = claudeGroups(HOOKS, (event) => ({
      type: 'command',
      command: script,
      timeout,
      // Stop carries the turn's answer only when asked for the conversation.
      ...(event === 'Stop' ? { metadata: { includeConversationData: true } } : {}),
    }));
    const changes: FileChange[] = [
      owned(
        script,
        ctx.show,
        `#!/bin/sh\n# kiro-learn hook for Augment, written by \`kiro-learn init\`.\n${ctx.hookCommand('augment', [], false)}\n`,
        'hook script for Augment',
        0o755,
      ),
      merged(
        settingsFile(ctx),
        ctx.show,
        mergeHooksAndMcp(groups, ctx.mcp ? ctx.mcpServer(false) : undefined),
        ctx.scope === 'global'
          ? 'adds kiro-learn hooks and the MCP server (every project)'
          : 'adds kiro-learn hooks and the MCP server (personal, not committed)',
      ),
    ];
    return changes;
  },
  personal: (ctx) => (ctx.scope === 'project' ? [settingsFile(ctx)] : []),
  // The hook script stays: it is in the data dir every project shares (`--purge` removes it).
  uninstall: (ctx) =>
    unmerged(
      settingsFile(ctx),
      ctx.show,
      withoutHooksAndMcp,
      'removes kiro-learn hooks and the MCP server',
    ),
};
