import { rmSync } from 'node:fs';
import { cli, envFor, freePort, NO_MODEL, tempHome } from '@kiro-learn/test-harness';
import { afterEach, describe, expect, it } from 'vitest';

const cleanups: Array<() => unknown> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('kiro-learn demo', () => {
  it('on a fresh data dir, starts the collector, captures, extracts and shows what the next prompt gets', async () => {
    const home = tempHome();
    const env = envFor(home, await freePort(), { ...NO_MODEL, KIRO_LEARN_EXTRACTOR: 'builtin' });
    cleanups.push(() => {
      cli(['stop'], env);
      rmSync(home, { recursive: true, force: true });
    });

    const first = cli(['demo'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/starting it/);
    expect(first.stdout).toMatch(/✓ the agent runs the tests \(they fail\)/);
    expect(first.stdout).toMatch(/extractor: builtin, 7 events → \d+ records/);
    expect(first.stdout).toMatch(
      /\[error\] StripeSignatureVerificationError .* fixed in src\/webhooks\/stripe\.ts/,
    );
    // The next session's context names the fix, in the retrieval format (the overview at
    // its start, or the prompt's context).
    const context = first.stdout.slice(first.stdout.indexOf('3. Retrieved'));
    expect(context).toMatch(/## Prior observations from kiro-learn/);
    expect(context).toMatch(/express\.raw\(/);
    expect(first.stdout).toMatch(/\/ui\//);

    // Run again: earlier demo memories are cleared, so it shows the same, not doubled.
    const second = cli(['demo'], env);
    expect(second.code).toBe(0);
    const count = (text: string) => (text.match(/^ {3}• /gm) ?? []).length;
    expect(count(second.stdout)).toBe(count(first.stdout));
  });
});
