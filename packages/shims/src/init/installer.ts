import { join } from 'node:path';
import type { ShimSurface } from '../hook.js';
import type { InstallSurface } from './detect.js';
import type { FileChange, Shower } from './files.js';

/** Where init installs: the project (personal files of this project) or every project. */
export type InstallScope = 'project' | 'global';

/** What an agent's installer gets: where things are and how hooks are run. */
export interface InstallContext {
  /** The project root (for `global` too: uninstall of legacy project files). */
  root: string;
  /** The user's home directory. */
  home: string;
  /** The data dir (hook scripts and launchers in its `bin/`). */
  data: string;
  /** `project` or `global` (`init --global`). */
  scope: InstallScope;
  /** Every agent being installed now (one agent's files may depend on another's). */
  surfaces: readonly InstallSurface[];
  /** Also write legacy Kiro IDE 0.x `.kiro.hook` files. */
  legacyIde: boolean;
  /** Kiro CLI's major version where known (3+: it runs the workspace hooks). */
  kiroCliMajor?: number;
  /** The user's own Kiro CLI agents to add the hooks to (`--kiro-agent`). */
  kiroAgents?: readonly string[];
  /** Register the MCP server (init was given one). */
  mcp: boolean;
  /** Paths for people. */
  show: Shower;
  /**
   * The command a hook configuration runs for one hook script. `portable` for files teams
   * commit: no path of this machine in it.
   */
  hookCommand(script: ShimSurface, args: readonly string[], portable: boolean): string;
  /** The MCP server registration, portable or this machine's. */
  mcpServer(portable: boolean): { command: string; args: string[] };
}

/** One agent's installer: part of the agent's module, so adding an agent adds one. */
export interface AgentInstaller {
  /** The `--surface` name. */
  surface: InstallSurface;
  /** For people: the agent's name. */
  title: string;
  /** Whether the agent looks installed on this machine (a program on PATH, a config dir). */
  detect(
    home: string,
    onPath: (program: string) => boolean,
    isDir: (path: string) => boolean,
  ): boolean;
  /** The hook scripts its hooks run. */
  scripts(ctx: InstallContext): ShimSurface[];
  /** The files init writes or edits for it. */
  install(ctx: InstallContext): FileChange[];
  /** What uninstall removes: everything of kiro-learn's it may have written in this scope. */
  uninstall(ctx: InstallContext): FileChange[];
  /**
   * The files of this project it writes that hold this machine's paths (project scope):
   * init adds them to `.gitignore`, uninstall takes them out again.
   */
  personal?(ctx: InstallContext): string[];
  /** Lines init prints after installing: what the user still has to do. */
  notes?(ctx: InstallContext): string[];
}

/**
 * Where one of an agent's files lives: under the home directory with `--global` (`global`,
 * path parts), under the project root otherwise (`project`, the same parts unless given).
 */
export const scopedPath =
  (global: readonly string[], project: readonly string[] = global) =>
  (ctx: Pick<InstallContext, 'scope' | 'home' | 'root'>): string =>
    ctx.scope === 'global' ? join(ctx.home, ...global) : join(ctx.root, ...project);
