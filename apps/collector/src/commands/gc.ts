import { line, parseCommandArgs } from './args.js';
import { linkCollector } from './link.js';
import type { Command } from './types.js';

interface Step {
  scope: string;
  rule: string;
  counts: { events: number; pending: number; logs: number };
}

interface QuestionOnly {
  records: number;
  projects: Array<{ namespace: string; records: number }>;
  file?: string;
}

export const gc: Command = {
  name: 'gc',
  summary: 'apply the retention settings now, and drop records of turns that learned nothing',
  usage: `kiro-learn gc [--dry-run]

Deletes the events past the retention settings (retention.events.maxAgeDays,
retention.maxDatabaseMB, and per project retention.projects), as the collector does daily.
Memory records are kept, except the ones earlier versions wrote for turns that only asked
(no tool use, no answer: "Request: … No tools were used."): those are saved to a file in
the data dir first (kiro-learn import FILE brings them back) and their events are kept.
  --dry-run   print what would go, delete nothing`,
  async run(args, io) {
    const { values } = parseCommandArgs('gc', args, { 'dry-run': { type: 'boolean' } });
    const dryRun = values['dry-run'] ?? false;
    const link = await linkCollector(io);
    try {
      const { steps, question_only: asked } = await link.json<{
        steps: Step[];
        question_only?: QuestionOnly;
      }>('POST', '/v1/gc', { dry_run: dryRun });
      if (asked && asked.records > 0) {
        for (const p of asked.projects) {
          line(
            io.stdout,
            `${dryRun ? 'would delete' : 'deleted'} ${p.records} question-only record${p.records === 1 ? '' : 's'} of ${p.namespace} (turns that learned nothing; their events are kept)`,
          );
        }
        if (asked.file)
          line(
            io.stdout,
            `saved them first to ${asked.file} (kiro-learn import it to bring them back)`,
          );
      } else line(io.stdout, 'no question-only records');
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
