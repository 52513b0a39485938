import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CollectorError } from '../errors.js';

/** Parses a command's arguments strictly; an unknown option is a usage error that names it. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new CollectorError(
      'usage',
      `kiro-learn ${command}: ${(error as Error).message.split('\n')[0]} (see kiro-learn ${command} --help)`,
    );
  }
}

export const line = (stream: NodeJS.WritableStream, text = '') => stream.write(`${text}\n`);

/**
 * The one file a command takes (`kiro-learn import FILE`), resolved against `cwd`; a usage
 * error that says which file, with an example (`what`), for none or more than one.
 */
export function oneFile(command: string, args: string[], cwd: string, what: string): string {
  const { positionals } = parseCommandArgs(command, args, {}, true);
  if (positionals.length !== 1) {
    throw new CollectorError('usage', `kiro-learn ${command}: name one ${what}`);
  }
  return resolve(cwd, positionals[0]!);
}
