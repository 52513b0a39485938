import { applyPlan, formatPlan, planUninstall, ShimsError } from '@kiro-learn/shims';
import { line, parseCommandArgs } from './args.js';
import { confirm } from './init.js';
import { stopCollector } from './stop.js';
import type { Command } from './types.js';

// Thin by design: what uninstall removes lives in @kiro-learn/shims.
export const uninstall: Command = {
  name: 'uninstall',
  summary: 'remove what kiro-learn init added to this project (data is kept)',
  usage: `kiro-learn uninstall [--global] [--purge] [--dry-run] [--yes]

Removes the hooks and MCP registrations kiro-learn init added to the project around the
current directory, leaving everything else in those files as it was. Memory is kept.
  --global   remove what kiro-learn init --global wrote (user-level settings) instead
  --purge    also stop the collector and delete all kiro-learn data (~/.kiro-learn or
             KIRO_LEARN_HOME), the installed hook scripts and the compressor agent
  --dry-run  show what would change, write nothing
  --yes      never ask (scripts and CI)`,
  async run(args, io) {
    const { values } = parseCommandArgs('uninstall', args, {
      global: { type: 'boolean' },
      purge: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    });
    try {
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
    } catch (error) {
      if (error instanceof ShimsError) {
        line(io.stderr, `kiro-learn uninstall: ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
};
