import { join } from 'node:path';
import { type FileChange, merged, type Shower, unmerged } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import { readText } from '../../init/json-file.js';
import { type ClaudeGroup, mergeClaudeHooks, withoutClaudeHooks } from '../../init/merge.js';
import { HOOK_TIMEOUT_SECONDS } from '../../init/timeouts.js';
import { tomlString, withoutTomlTable, withTomlTable } from './toml.js';

const HOOKS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PreCompact', 'Stop'] as const;
const MCP_TABLE = '[mcp_servers.kiro-learn]';

const codexDir = scopedPath(['.codex']);

/**
 * Codex CLI: hooks in `.codex/hooks.json` (the project's, committed: no path of this
 * machine) or `~/.codex/hooks.json`, the MCP server as `[mcp_servers.kiro-learn]` in the
 * `config.toml` beside it. Codex runs a new or changed hook only after the user trusts it
 * once (`/hooks` in Codex), and reads a project's `.codex/` only in a trusted project.
 */
export const codexInstaller: AgentInstaller = {
  surface: 'codex',
  title: 'Codex CLI',
  detect: (home, onPath, isDir) => onPath('codex') || isDir(join(home, '.codex')),
  scripts: () => ['codex'],
  install(ctx) {
    const portable = ctx.scope === 'project';
    const command = ctx.hookCommand('codex', [], portable);
    // Codex matchers are regular expressions, and a group without one matches every tool.
    const group: ClaudeGroup = {
      hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS.codex }],
    };
    const groups = Object.fromEntries(HOOKS.map((event) => [event, group]));
    const changes: FileChange[] = [
      merged(
        join(codexDir(ctx), 'hooks.json'),
        ctx.show,
        (value, shown) => mergeClaudeHooks(value, groups, shown),
        'adds kiro-learn hooks',
      ),
    ];
    if (ctx.mcp) {
      const { command: program, args } = ctx.mcpServer(portable);
      changes.push(
        tomlChange(
          join(codexDir(ctx), 'config.toml'),
          ctx.show,
          (text) =>
            withTomlTable(text, MCP_TABLE, [
              `command = ${tomlString(program)}`,
              `args = [${args.map(tomlString).join(', ')}]`,
            ]),
          'adds the kiro-learn MCP server',
        ),
      );
    }
    return changes;
  },
  uninstall(ctx) {
    const toml = join(codexDir(ctx), 'config.toml');
    const text = readText(toml);
    const changes = unmerged(
      join(codexDir(ctx), 'hooks.json'),
      ctx.show,
      withoutClaudeHooks,
      'removes kiro-learn hooks',
    );
    if (text?.includes(MCP_TABLE)) {
      const after = withoutTomlTable(text, MCP_TABLE);
      changes.push(
        after === ''
          ? {
              path: toml,
              shown: ctx.show(toml),
              action: 'delete',
              summary: 'removes the kiro-learn MCP server',
            }
          : {
              path: toml,
              shown: ctx.show(toml),
              action: 'update',
              after,
              summary: 'removes the kiro-learn MCP server',
            },
      );
    }
    return changes;
  },
  notes: () => [
    'Codex CLI: run /hooks in Codex once to review and trust the kiro-learn hooks (Codex runs new or changed hooks only after that).',
  ],
};

function tomlChange(
  path: string,
  show: Shower,
  edit: (text: string | null) => string,
  summary: string,
): FileChange {
  const before = readText(path);
  const after = edit(before);
  return {
    path,
    shown: show(path),
    action: before === null ? 'create' : before === after ? 'unchanged' : 'update',
    after,
    summary,
  };
}
