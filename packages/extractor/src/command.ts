import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { ExtractorError } from './errors.js';

/**
 * Splits a command line into words: white space separates, single and double quotes
 * group, a backslash escapes the next character. No expansion of any kind.
 */
export function parseCommand(command: string | readonly string[]): string[] {
  if (typeof command !== 'string') {
    if (command.length === 0 || command[0] === '') {
      throw new ExtractorError('invalid_config', 'the agent command is empty');
    }
    return [...command];
  }
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote)
    throw new ExtractorError(
      'invalid_config',
      `unclosed ${quote} in the agent command: ${command}`,
    );
  if (inWord) words.push(word);
  if (words.length === 0) throw new ExtractorError('invalid_config', 'the agent command is empty');
  return words;
}

/** The executable's full path when `program` can be run (a path, or a name found on PATH). */
export function findExecutable(
  program: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program.includes('/') || isAbsolute(program))
    return executable(program) ? program : undefined;
  const extensions =
    process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) {
      const candidate = join(dir, program + ext);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}
