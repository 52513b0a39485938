// Worker threads run this package's compiled modules, also under its TypeScript sources.
import { existsSync } from 'node:fs';
import { StorageError } from '../errors.js';

/** A compiled module of this folder (`name.js`), from dist/ under the TypeScript sources. */
export function compiledUrl(name: string): URL {
  const here = import.meta.url;
  const url = here.endsWith('.ts')
    ? new URL(`../../dist/sqlite/${name}`, here)
    : new URL(`./${name}`, here);
  if (!existsSync(url)) {
    throw new StorageError('io', `${url.pathname} is missing: build @kiro-learn/storage`);
  }
  return url;
}

/**
 * The process's Node flags without the workspace's source condition (set under the test
 * runner): the worker runs compiled code, and so must the packages it and its models
 * import, whose TypeScript sources Node cannot load.
 */
export function compiledExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if ((flag === '--conditions' || flag === '-C') && argv[i + 1] === SOURCE_CONDITION) i++;
    else if (flag !== `--conditions=${SOURCE_CONDITION}`) out.push(flag);
  }
  return out;
}
const SOURCE_CONDITION = '@kiro-learn/source';
