/** What a command may touch: injected so commands run in tests without a real terminal. */
export interface CommandIO {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** One `kiro-learn <name>` command. Each lives in its own file under commands/. */
export interface Command {
  name: string;
  /** One line for `kiro-learn --help`. */
  summary: string;
  /** Usage lines for `kiro-learn <name> --help`. */
  usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[], io: CommandIO): Promise<number>;
}
