import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { cliAddress, sleep } from '../lifecycle/client.js';
import { daemonFiles } from '../lifecycle/files.js';
import { formatPretty } from '../log/logger.js';
import { line, parseCommandArgs } from './args.js';
import type { Command, CommandIO } from './types.js';

export const logs: Command = {
  name: 'logs',
  summary: "print the collector's log (-f to follow)",
  usage: `kiro-learn logs [-f] [-n LINES] [--json]

  -f, --follow      keep printing new lines (Ctrl-C to stop); follows rotation
  -n, --lines N     how many recent lines to print first (default 50)
  --json            print the JSON lines as stored`,
  async run(args, io) {
    const { values } = parseCommandArgs('logs', args, {
      follow: { type: 'boolean', short: 'f' },
      lines: { type: 'string', short: 'n', default: '50' },
      json: { type: 'boolean' },
    });
    const count = Number(values.lines);
    if (!Number.isInteger(count) || count < 0) {
      line(io.stderr, `kiro-learn logs: --lines must be a whole number, got ${values.lines}`);
      return 2;
    }
    const file = daemonFiles(cliAddress(io.env).home).log;
    const print = (text: string) => line(io.stdout, values.json ? text : pretty(text));
    if (!existsSync(file) && !values.follow) {
      line(
        io.stderr,
        `kiro-learn: no log yet at ${file} (the collector has not run with this data dir)`,
      );
      return 1;
    }
    let offset = 0;
    if (existsSync(file)) {
      const { text, size } = readFrom(file, 0);
      offset = size;
      const lines = text.split('\n').filter(Boolean);
      for (const l of lines.slice(Math.max(0, lines.length - count))) print(l);
    }
    if (values.follow) await follow(file, offset, print, io);
    return 0;
  },
};

function pretty(text: string): string {
  try {
    return formatPretty(JSON.parse(text));
  } catch {
    return text;
  }
}

function readFrom(file: string, offset: number): { text: string; size: number } {
  const size = statSync(file).size;
  if (size <= offset) return { text: '', size };
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    return { text: buffer.toString('utf8'), size };
  } finally {
    closeSync(fd);
  }
}

async function follow(file: string, start: number, print: (l: string) => void, io: CommandIO) {
  let offset = start;
  let partial = '';
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  while (!stopped && io.stdout.writable !== false) {
    if (existsSync(file)) {
      // A smaller file means it was rotated: start over at its beginning.
      if (statSync(file).size < offset) offset = 0;
      const { text, size } = readFrom(file, offset);
      offset = Math.max(offset, size);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) if (l) print(l);
    }
    await sleep(250);
  }
}
