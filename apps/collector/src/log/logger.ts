import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { LOG_LEVELS, type LogLevel } from '../config/settings.js';

/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Whether lines of `level` are written: skip building fields nobody reads. */
  enabled(level: LogLevel): boolean;
  /** A logger that adds `fields` to every line (a request id, say). */
  child(fields: LogFields): Logger;
  /** Closes the log file. */
  close(): void;
}

export interface LoggerOptions {
  /** JSON-lines log file; omitted writes no file. */
  file?: string;
  /** Least severe level written. */
  level: LogLevel;
  /** Rotate when the file would grow past this many bytes. */
  maxBytes: number;
  /** Rotated files kept (`collector.log.1` is the newest). */
  files: number;
  /** Also write human-readable lines here (a TTY in `--foreground`). */
  pretty?: NodeJS.WritableStream;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * A JSON-lines logger with size-based rotation. Writes are synchronous: lines are small,
 * and a line written just before a crash is the one you want to read.
 */
export function createLogger(options: LoggerOptions): Logger {
  const min = RANK[options.level];
  let fd: number | undefined;
  let size = 0;

  const open = () => {
    if (!options.file) return;
    mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
    fd = openSync(options.file, 'a', 0o600);
    size = fstatSync(fd).size;
  };
  const rotate = () => {
    const file = options.file!;
    if (fd !== undefined) closeSync(fd);
    if (options.files === 0) rmSync(file, { force: true });
    for (let i = options.files; i >= 1; i--) {
      try {
        renameSync(i === 1 ? file : `${file}.${i - 1}`, `${file}.${i}`);
      } catch {
        // that generation does not exist yet
      }
    }
    open();
  };
  open();

  const write = (level: LogLevel, msg: string, fields: LogFields) => {
    if (RANK[level] < min) return;
    const time = new Date().toISOString();
    if (fd !== undefined) {
      const line = Buffer.from(`${safeJson({ time, level, msg, ...fields })}\n`);
      try {
        if (size > 0 && size + line.length > options.maxBytes) rotate();
        writeLine(fd!, line, size);
        size += line.length;
      } catch {
        // A full disk (or a vanished file) loses this line, never the request that logged it.
      }
    }
    options.pretty?.write(`${formatPretty({ time, level, msg, ...fields })}\n`);
  };

  const make = (base: LogFields): Logger => ({
    debug: (msg, fields) => write('debug', msg, { ...base, ...fields }),
    info: (msg, fields) => write('info', msg, { ...base, ...fields }),
    warn: (msg, fields) => write('warn', msg, { ...base, ...fields }),
    error: (msg, fields) => write('error', msg, { ...base, ...fields }),
    enabled: (level) => RANK[level] >= min,
    child: (fields) => make({ ...base, ...fields }),
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  });
  return make({});
}

/**
 * Writes the whole line or none of it: a write cut short (a full disk) is taken back by
 * truncating to where the line began, so the file never holds half a JSON line.
 */
function writeLine(fd: number, line: Buffer, start: number): void {
  let written = 0;
  try {
    while (written < line.length) written += writeSync(fd, line, written);
  } catch (error) {
    if (written > 0) {
      try {
        ftruncateSync(fd, start);
      } catch {
        // nothing more to do
      }
    }
    throw error;
  }
}

/** A logger that drops everything (tests, library use). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  enabled: () => false,
  child: () => silentLogger,
  close() {},
};

function safeJson(value: LogFields): string {
  try {
    return JSON.stringify(value, (_key, v) =>
      v instanceof Error ? { message: v.message, name: v.name } : v,
    );
  } catch {
    return JSON.stringify({ time: value['time'], level: value['level'], msg: value['msg'] });
  }
}

/** `12:00:01.123 INFO  message key=value`: one JSON log line for people. */
export function formatPretty(line: LogFields): string {
  const { time, level, msg, ...rest } = line;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const lvl = String(level ?? '')
    .toUpperCase()
    .padEnd(5);
  const extra = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${clock} ${lvl} ${String(msg ?? '')}${extra ? ` ${extra}` : ''}`;
}

export { LOG_LEVELS };
