import { type FileChange, merged, unmerged } from './files.js';
import type { InstallContext } from './installer.js';
import { type McpLaunch, withoutMcp } from './merge.js';

/** The MCP registration of an agent whose MCP servers are the user's alone. */
export interface UserMcp {
  /** With `--global` and the MCP server: the user's file gains it (this machine's paths). */
  install(ctx: InstallContext): FileChange[];
  /** A global uninstall takes it out again. */
  uninstall(ctx: InstallContext): FileChange[];
  /** A project install with the MCP server says how to register it for this agent. */
  notes(ctx: InstallContext): string[];
}

/**
 * For an agent that reads MCP servers from one file of the user's (Copilot CLI, Windsurf):
 * nothing of a project can register one, so the server is written with `--global` only.
 */
export function userMcp(options: {
  /** The user's MCP file. */
  file: (ctx: InstallContext) => string;
  /** The file with kiro-learn's server added. */
  merge: (
    config: Record<string, unknown>,
    launch: McpLaunch,
    shown: string,
  ) => Record<string, unknown>;
  /** What a project install tells the user (run init with --global for this agent). */
  note: string;
}): UserMcp {
  return {
    install: (ctx) =>
      ctx.mcp && ctx.scope === 'global'
        ? [
            merged(
              options.file(ctx),
              ctx.show,
              (value, shown) => options.merge(value, ctx.mcpServer(false), shown),
              'adds the kiro-learn MCP server (user scope)',
            ),
          ]
        : [],
    uninstall: (ctx) =>
      ctx.scope === 'global'
        ? unmerged(options.file(ctx), ctx.show, withoutMcp, 'removes the kiro-learn MCP server')
        : [],
    notes: (ctx) => (ctx.scope === 'project' && ctx.mcp ? [options.note] : []),
  };
}
