import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { compressorAgentConfig } from '@kiro-learn/extractor';
import {
  applyPlan,
  chooseNode,
  formatPlan,
  INSTALL_SURFACES,
  type InstallSurface,
  MCP_NODE_FLOOR,
  type McpLaunch,
  planInit,
  ShimsError,
} from '@kiro-learn/shims';
import { CollectorError } from '../errors.js';
import { line, parseCommandArgs } from './args.js';
import type { Command, CommandIO } from './types.js';

// Thin by design: what init writes, and how it merges, lives in @kiro-learn/shims.
export const init: Command = {
  name: 'init',
  summary: 'install kiro-learn hooks and MCP server into this project',
  usage: `kiro-learn init [--surface ${INSTALL_SURFACES.join('|')}|all] [--global] [--kiro-agent NAME] [--legacy-ide] [--dry-run] [--yes]

Installs hooks and the MCP server for the agents found on this machine (or --surface,
repeatable or comma-separated) into the project around the current directory, merging
into existing files without touching anything else; running it again changes nothing.
Hooks go where each agent keeps personal settings; files teams commit get no path of
this machine. In a git repository, the personal files init writes (they hold this
machine's paths) are added to .gitignore.
  --global          install for every project (user-level settings) instead
  --kiro-agent NAME also add the hooks to your own Kiro CLI agent NAME (repeatable)
  --legacy-ide      also write Kiro IDE 0.x .kiro.hook files
  --dry-run         show what would change, write nothing
  --yes             never ask (scripts and CI)`,
  async run(args, io) {
    const { values } = parseCommandArgs('init', args, {
      surface: { type: 'string', multiple: true },
      global: { type: 'boolean' },
      'kiro-agent': { type: 'string', multiple: true },
      'legacy-ide': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    });
    return reportingShimsErrors('init', io, async () => {
      const plan = planInit({
        cwd: io.cwd,
        env: io.env,
        ...(values.surface ? { surfaces: parseSurfaces(values.surface) } : {}),
        scope: values.global ? 'global' : 'project',
        ...(values['kiro-agent'] ? { kiroAgents: values['kiro-agent'] } : {}),
        legacyIde: values['legacy-ide'] ?? false,
        mcpServer: mcpServerLaunch(io.env),
        compressorAgent: compressorAgentConfig(),
      });
      const pending = plan.changes.some((change) => change.action !== 'unchanged');
      if (values['dry-run'] || !pending) {
        io.stdout.write(formatPlan(plan, true));
        return 0;
      }
      if (!values.yes && !(await confirm(formatPlan(plan, true), io))) {
        line(io.stderr, 'kiro-learn init: nothing written');
        return 1;
      }
      applyPlan(plan);
      io.stdout.write(formatPlan(plan, false));
      for (const note of plan.notes ?? []) line(io.stdout, note);
      line(
        io.stdout,
        'Start a new agent session to load the hooks; the collector starts on the first hook (or: kiro-learn start).',
      );
      return 0;
    });
  },
};

/**
 * Runs an init or uninstall: a ShimsError (a file it cannot merge, an unknown agent) is
 * printed as `kiro-learn <command>: <message>` and exits 1; anything else is thrown.
 */
export async function reportingShimsErrors(
  command: string,
  io: CommandIO,
  run: () => Promise<number>,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ShimsError) {
      line(io.stderr, `kiro-learn ${command}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function parseSurfaces(values: string[]): InstallSurface[] {
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim());
  if (names.includes('all')) return [...INSTALL_SURFACES];
  for (const name of names) {
    if (!INSTALL_SURFACES.includes(name as InstallSurface)) {
      throw new CollectorError(
        'usage',
        `kiro-learn init: unknown surface "${name}"; use ${INSTALL_SURFACES.join(', ')} or all`,
      );
    }
  }
  return names as InstallSurface[];
}

/**
 * The MCP server of this installation, on the Node chosen by the same rule as the hooks'
 * (the fastest one on PATH that meets the MCP server's floor, the checkout's private one
 * only when nothing else does: moving or cleaning a checkout must not break the agents).
 */
function mcpServerLaunch(env: NodeJS.ProcessEnv): McpLaunch {
  const pkg = fileURLToPath(import.meta.resolve('@kiro-learn/mcp-server/package.json'));
  const node = chooseNode(process.execPath, env, MCP_NODE_FLOOR);
  return {
    command: node.path,
    args: [join(dirname(pkg), 'dist', 'cli.js')],
    nodeVersion: node.version,
  };
}

/** Asks on a terminal; anything but a terminal on both ends means no (use --yes). */
export async function confirm(plan: string, io: Parameters<Command['run']>[1]): Promise<boolean> {
  if (!process.stdin.isTTY || !io.stdout.isTTY) {
    line(
      io.stderr,
      'kiro-learn: not a terminal, so not asking: pass --yes to apply, or --dry-run to look',
    );
    return false;
  }
  io.stdout.write(plan);
  const rl = createInterface({ input: process.stdin, output: io.stdout });
  try {
    return /^(y|yes|)$/i.test((await rl.question('Apply these changes? [Y/n] ')).trim());
  } finally {
    rl.close();
  }
}
