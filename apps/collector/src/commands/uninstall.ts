import { readFileSync } from 'node:fs';
import { applyPlan, formatPlan, planUninstall } from '@kiro-learn/shims';
import { COMMAND_MARK } from '../install/commands.js';
import { removeInstall } from '../install/install.js';
import { installation } from '../install/layout.js';
import { line, parseCommandArgs } from './args.js';
import { confirm, reportingShimsErrors } from './init.js';
import { stopCollector } from './stop.js';
import type { Command } from './types.js';

// Thin by design: what uninstall removes lives in @kiro-learn/shims.
export const uninstall: Command = {
  name: 'uninstall',
  summary: 'remove what kiro-learn init added to this project (data is kept)',
  usage: `kiro-learn uninstall [--global] [--purge] [--dry-run] [--yes]
       kiro-learn uninstall --self [--yes]

Removes the hooks and MCP registrations kiro-learn init added to the project around the
current directory, leaving everything else in those files as it was. Memory is kept.
  --global   remove what kiro-learn init --global wrote (user-level settings) instead
  --purge    also stop the collector and delete all kiro-learn data (~/.kiro-learn or
             KIRO_LEARN_HOME), the installed hook scripts and the compressor agent
  --self     instead: stop the collector and remove what kiro-learn install put on your PATH
             (the three commands and the program's directory); memory and hooks are kept
  --dry-run  show what would change, write nothing
  --yes      never ask (scripts and CI)`,
  async run(args, io) {
    const { values } = parseCommandArgs('uninstall', args, {
      global: { type: 'boolean' },
      purge: { type: 'boolean' },
      self: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    });
    if (values.self) return uninstallSelf(values.yes ?? false, io);
    return reportingShimsErrors('uninstall', io, async () => {
      const plan = planUninstall({
        cwd: io.cwd,
        env: io.env,
        scope: values.global ? 'global' : 'project',
        purge: values.purge ?? false,
      });
      if (values['dry-run'] || plan.changes.length === 0) {
        io.stdout.write(formatPlan(plan, true));
        return 0;
      }
      if (!values.yes && !(await confirm(formatPlan(plan, true), io))) {
        line(io.stderr, 'kiro-learn uninstall: nothing removed');
        return 1;
      }
      // The daemon holds the database open: stop it before its files go.
      if (values.purge && !(await stopCollector(io))) return 1;
      applyPlan(plan);
      io.stdout.write(formatPlan(plan, false));
      return 0;
    });
  },
};

/** `uninstall --self`: undoes `kiro-learn install` (this program, its commands). */
async function uninstallSelf(yes: boolean, io: Parameters<Command['run']>[1]): Promise<number> {
  const at = installation();
  if (at.kind !== 'installed') {
    line(
      io.stderr,
      at.kind === 'checkout'
        ? 'kiro-learn uninstall --self: this is a checkout, not an install; an install made from it is removed by its own kiro-learn (kiro-learn uninstall --self on your PATH)'
        : `kiro-learn uninstall --self: this kiro-learn (${at.dir}) was not installed by kiro-learn install: remove it the way it was installed (npm uninstall -g kiro-learn)`,
    );
    return 1;
  }
  const { record } = at;
  const what = `kiro-learn ${record.version}: ${record.commands.join(', ')} and ${record.dir}`;
  if (!yes && !(await confirm(`kiro-learn uninstall --self removes ${what}\n`, io))) {
    line(io.stderr, 'kiro-learn uninstall: nothing removed');
    return 1;
  }
  // The collector runs this program: stop it before its files go (data is kept).
  if (!(await stopCollector(io))) return 1;
  const ours = (file: string) => {
    try {
      return readFileSync(file, 'utf8').includes(COMMAND_MARK);
    } catch {
      return false;
    }
  };
  for (const removed of removeInstall(record, ours)) line(io.stdout, `  remove  ${removed}`);
  line(
    io.stdout,
    `kiro-learn is uninstalled; your memory is kept. Hooks that kiro-learn init wrote into projects stay, spooling events for a collector that no longer starts: remove them with kiro-learn uninstall in each project (from a checkout: ${record.from}/pnpmw kiro-learn uninstall).`,
  );
  return 0;
}
