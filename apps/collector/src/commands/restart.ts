import { line, parseCommandArgs } from './args.js';
import { start } from './start.js';
import { stopCollector } from './stop.js';
import type { Command } from './types.js';

export const restart: Command = {
  name: 'restart',
  summary: 'stop the collector, then start it in the background',
  usage: `kiro-learn restart

Stops the running collector (if any) and starts a new one, e.g. after changing settings.`,
  async run(args, io) {
    parseCommandArgs('restart', args, {});
    if (!(await stopCollector(io))) {
      line(io.stderr, 'kiro-learn: not starting a new collector while the old one runs');
      return 1;
    }
    return start.run([], io);
  },
};
