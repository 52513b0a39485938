import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The main entry must run outside Node (browsers, workers): load the built entry with a
// loader hook that fails any `node:` or bare built-in import.
const hook = `
import { registerHooks, builtinModules } from 'node:module';
const builtins = new Set(builtinModules);
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('node:') || builtins.has(specifier)) {
      if (context.parentURL && !context.parentURL.startsWith('file:') ) return next(specifier, context);
      throw new Error('node built-in imported: ' + specifier + ' from ' + context.parentURL);
    }
    return next(specifier, context);
  },
});
const schema = await import('@kiro-learn/schema');
console.log(Object.keys(schema).length);
`;

describe('@kiro-learn/schema entry point', () => {
  it('loads without any node:* module', () => {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', hook], {
      cwd: new URL('..', import.meta.url).pathname,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(Number(result.stdout.trim())).toBeGreaterThan(20);
  });

  it('the Node-only subpath is separate and does use Node', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        hook.replace("'@kiro-learn/schema'", "'@kiro-learn/schema/node'"),
      ],
      {
        cwd: new URL('..', import.meta.url).pathname,
        encoding: 'utf8',
      },
    );
    expect(result.stderr).toMatch(/node built-in imported/);
  });
});
