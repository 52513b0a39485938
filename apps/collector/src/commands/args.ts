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
