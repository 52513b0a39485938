import { ensureDataDir } from '@kiro-learn/schema/node';
import { parseDuration, pause as pauseCapture, resume as resumeCapture } from '../data/pause.js';
import { CollectorError } from '../errors.js';
import { cliAddress } from '../lifecycle/client.js';
import { line, parseCommandArgs } from './args.js';
import { projectNamespace } from './link.js';
import type { Command } from './types.js';

export const pause: Command = {
  name: 'pause',
  summary: 'stop capturing and injecting memory (one project or all, for a while)',
  usage: `kiro-learn pause [--project DIR] [--for DURATION]

While paused, hooks record nothing and inject nothing (they still exit at once), and the
collector drops events that arrive for the paused project anyway.
  --project DIR    only the project at DIR (default: every project)
  --for DURATION   e.g. 30m, 1h, 2d; without it, until kiro-learn resume`,
  async run(args, io) {
    const { values } = parseCommandArgs('pause', args, {
      project: { type: 'string' },
      for: { type: 'string' },
    });
    const forMs = values.for === undefined ? undefined : parseDuration(values.for);
    if (values.for !== undefined && forMs === undefined) {
      throw new CollectorError(
        'usage',
        `kiro-learn pause: --for "${values.for}" is not a duration; use e.g. 30m, 1h or 2d`,
      );
    }
    const project = values.project === undefined ? undefined : projectNamespace(io, values.project);
    const view = pauseCapture(ensureDataDir(cliAddress(io.env).home), {
      now: Date.now(),
      ...(project ? { namespace: project.namespace, root: project.root } : {}),
      ...(forMs !== undefined ? { forMs } : {}),
    });
    const what = project ? `${project.root} (${project.namespace})` : 'every project';
    const until = view.until ? `until ${view.until}` : 'until kiro-learn resume';
    line(io.stdout, `capture paused for ${what} ${until}`);
    return 0;
  },
};

export const resume: Command = {
  name: 'resume',
  summary: 'capture and inject memory again after kiro-learn pause',
  usage: `kiro-learn resume [--project DIR]

Ends a pause: of the project at DIR, or, without --project, every pause.`,
  async run(args, io) {
    const { values } = parseCommandArgs('resume', args, { project: { type: 'string' } });
    const project = values.project === undefined ? undefined : projectNamespace(io, values.project);
    const had = resumeCapture(cliAddress(io.env).home, {
      now: Date.now(),
      ...(project ? { namespace: project.namespace } : {}),
    });
    const what = project ? project.root : 'every project';
    line(io.stdout, had ? `capture resumed for ${what}` : `capture was not paused for ${what}`);
    return 0;
  },
};
