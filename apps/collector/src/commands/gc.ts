import { line, parseCommandArgs } from './args.js';
import { linkCollector } from './link.js';
import type { Command } from './types.js';

interface Step {
  scope: string;
  rule: string;
  counts: { events: number; pending: number; logs: number };
}

export const gc: Command = {
  name: 'gc',
  summary: 'apply the retention settings now (--dry-run shows what would go)',
  usage: `kiro-learn gc [--dry-run]

Deletes the events past the retention settings (retention.events.maxAgeDays,
retention.maxDatabaseMB, and per project retention.projects), as the collector does daily.
Memory records are kept.
  --dry-run   print what would go, delete nothing`,
  async run(args, io) {
    const { values } = parseCommandArgs('gc', args, { 'dry-run': { type: 'boolean' } });
    const dryRun = values['dry-run'] ?? false;
    const link = await linkCollector(io);
    try {
      const { steps } = await link.json<{ steps: Step[] }>('POST', '/v1/gc', { dry_run: dryRun });
      if (steps.length === 0) {
        line(io.stdout, 'nothing is past the retention limits (settings retention.*)');
        return 0;
      }
      for (const step of steps) {
        line(
          io.stdout,
          `${dryRun ? 'would delete' : 'deleted'} ${step.counts.events} events (${step.counts.logs} log entries) of ${step.scope === 'all' ? 'all projects' : step.scope}: ${step.rule}`,
        );
      }
      return 0;
    } finally {
      await link.close();
    }
  },
};
