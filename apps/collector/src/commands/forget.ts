import { createInterface } from 'node:readline/promises';
import { CollectorError } from '../errors.js';
import { line, parseCommandArgs } from './args.js';
import { linkCollector, projectNamespace } from './link.js';
import type { Command, CommandIO } from './types.js';

interface Counts {
  events: number;
  records: number;
  pending: number;
  logs: number;
  spool?: number;
}

/** The collector's answer to POST /v1/forget. */
interface Answer {
  counts: Counts;
  /** Every namespace the forget covers (a project's earlier ids included). */
  namespaces?: string[];
  /** Copies kiro-learn made in the data dir (backups, gc's saved records) that hold some of it. */
  backups: Array<{ file: string; action: 'rewritten' | 'deleted' | 'holds'; reason?: string }>;
  /** PostgreSQL only: whether the touched tables were rewritten (--compact). */
  compacted?: boolean;
  /** PostgreSQL, --compact: an older transaction outlasted the wait; the text may stay. */
  compact_held?: boolean;
}

export const forget: Command = {
  name: 'forget',
  summary: 'delete events and memories for good (no trace left in the database files)',
  usage: `kiro-learn forget --record ID | --event ID | --session ID | --project DIR | --before DATE | --all [--yes] [--dry-run] [--compact]

Deletes, shows what it will delete and asks first:
  --record ID     one memory record
  --event ID      one event, and the records made from it
  --session ID    a session's events and the records made from them (--project narrows)
  --project DIR   everything of the project at DIR: events, records, pending buffer, logs,
                  spooled events; also under the project's earlier ids (a repository
                  that gained a remote), found by the directory its events name
  --before DATE   everything that arrived before DATE (2026-01-31 or an ISO time;
                  --project narrows)
  --all           everything
  --yes           do not ask (scripts)
  --dry-run       only show what would go
  --compact       PostgreSQL: rewrite the touched tables afterwards (VACUUM FULL) so the
                  text leaves the table files now (each table is locked while it runs)
The text is gone from the database file and its WAL afterwards, not only from queries,
and from the copies kiro-learn made in the data dir (daily backups, backups/, databases
set aside by restore, the records gc saved to gc/): each copy that holds some of it is
rewritten without it, or deleted when it cannot be. Works with the collector running or stopped.`,
  async run(args, io) {
    const { values } = parseCommandArgs('forget', args, {
      record: { type: 'string' },
      event: { type: 'string' },
      session: { type: 'string' },
      project: { type: 'string' },
      before: { type: 'string' },
      all: { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
      'dry-run': { type: 'boolean' },
      compact: { type: 'boolean' },
    });
    const chosen = (['record', 'event', 'session', 'before', 'all'] as const).filter(
      (key) => values[key] !== undefined,
    );
    if (chosen.length === 0 && values.project !== undefined) chosen.push('project' as never);
    if (chosen.length !== 1) {
      throw new CollectorError(
        'usage',
        'kiro-learn forget: say what to forget: one of --record ID, --event ID, --session ID, --project DIR, --before DATE, --all (see kiro-learn forget --help)',
      );
    }
    if (values.before !== undefined && Number.isNaN(Date.parse(values.before))) {
      throw new CollectorError(
        'usage',
        `kiro-learn forget: --before "${values.before}" is not a date; use e.g. 2026-01-31 or 2026-01-31T12:00:00Z`,
      );
    }
    const project = values.project === undefined ? undefined : projectNamespace(io, values.project);
    const body = {
      ...(values.record ? { record: values.record } : {}),
      ...(values.event ? { event: values.event } : {}),
      ...(values.session ? { session: values.session } : {}),
      ...(values.before ? { before: values.before } : {}),
      ...(values.all ? { all: true as const } : {}),
      ...(project ? { namespace: project.namespace, directory: project.root } : {}),
      ...(values.compact ? { compact: true } : {}),
    };
    const what = describe(values, project?.namespace);
    const link = await linkCollector(io);
    try {
      const preview = await link.json<Answer>('POST', '/v1/forget', {
        ...body,
        dry_run: true,
      });
      const total = preview.counts.events + preview.counts.records + preview.counts.logs;
      line(io.stdout, `${what}: ${summary(preview.counts)}`);
      const earlier = (preview.namespaces ?? []).filter((ns) => ns !== project?.namespace);
      if (earlier.length > 0) {
        line(io.stdout, `  with the project's earlier ids: ${earlier.join(', ')}`);
      }
      for (const copy of preview.backups) {
        line(
          io.stdout,
          `  ${copy.file} holds some of it: ${copy.reason ?? 'it will be rewritten without it'}`,
        );
      }
      if (values['dry-run']) return 0;
      if (total === 0 && !values.all && !project) {
        line(io.stdout, 'nothing to forget');
        return 0;
      }
      if (!values.yes && !(await ask(io, 'Delete this for good? [y/N] '))) {
        line(io.stderr, 'kiro-learn forget: nothing deleted');
        return 1;
      }
      const done = await link.json<Answer>('POST', '/v1/forget', body);
      line(io.stdout, `forgot ${summary(done.counts)}`);
      for (const copy of done.backups) {
        line(
          io.stdout,
          copy.action === 'rewritten'
            ? `rewrote ${copy.file} without it`
            : `deleted ${copy.file} (${copy.reason})`,
        );
      }
      if (done.compact_held) {
        line(
          io.stdout,
          'PostgreSQL: a transaction older than this forget was still running after 30 s, so the rewrite may have kept the deleted text in the table files. Run the same forget with --compact again once it has ended (see pg_stat_activity).',
        );
      } else if (done.compacted === false) {
        line(
          io.stdout,
          'PostgreSQL: the rows are deleted for every query; their bytes stay in the table files until PostgreSQL reuses the space. Run again with --compact to rewrite the tables now.',
        );
      }
      return 0;
    } finally {
      await link.close();
    }
  },
};

function describe(values: Record<string, unknown>, namespace?: string): string {
  const within = namespace ? ` in ${namespace}` : '';
  if (values['record']) return `memory record ${values['record']}`;
  if (values['event']) return `event ${values['event']} and the records made from it`;
  if (values['session']) return `session ${values['session']}${within}`;
  if (values['before']) return `everything before ${values['before']}${within}`;
  if (values['all']) return 'everything kiro-learn holds';
  return `project ${namespace}`;
}

function summary(c: Counts): string {
  const parts = [
    `${c.events} event${c.events === 1 ? '' : 's'}`,
    `${c.records} memor${c.records === 1 ? 'y' : 'ies'}`,
    `${c.pending} pending`,
    `${c.logs} log entr${c.logs === 1 ? 'y' : 'ies'}`,
    ...(c.spool ? [`${c.spool} spooled`] : []),
  ];
  return parts.join(', ');
}

/** A yes/no question on a terminal; anything but a terminal is a no (use --yes). */
export async function ask(io: CommandIO, question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !io.stdout.isTTY) {
    line(io.stderr, 'kiro-learn: not a terminal, so not asking: pass --yes to go ahead');
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: io.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
