import type { ParseArgsConfig } from 'node:util';
import { parseCommandArgs } from '../args.js';
import type { CommandIO } from '../types.js';

/** One `kiro-learn team <sub>` subcommand. */
export interface Subcommand {
  name: string;
  /** Its line of `kiro-learn team --help`. */
  usage: string;
  run(args: string[], io: CommandIO): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A subcommand whose arguments are parsed strictly before `run` sees them (an unknown
 * option is a usage error naming it); `positionals` allows arguments besides options.
 */
export function subcommand<T extends Options>(
  name: string,
  usage: string,
  spec: { options: T; positionals?: boolean },
  run: (parsed: ReturnType<typeof parseCommandArgs<T>>, io: CommandIO) => Promise<number>,
): Subcommand {
  return {
    name,
    usage,
    run: (args, io) =>
      run(parseCommandArgs(`team ${name}`, args, spec.options, spec.positionals ?? false), io),
  };
}
