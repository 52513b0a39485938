import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureOff, globMatches, writePauseState } from './paused.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kl-paused-'));
  dirs.push(dir);
  return dir;
}

const NS = '/actor/dev/project/app-1/';
const OTHER = '/actor/dev/project/other-2/';

describe('captureOff', () => {
  it('is on with no pause file, no ignore file and no rules', () => {
    const home = temp();
    expect(captureOff(home, { namespace: NS, root: temp() })).toBeUndefined();
  });

  it('pauses one project until a time, or everything until resumed', () => {
    const home = temp();
    const root = temp();
    const now = Date.parse('2026-11-23T10:00:00Z');
    writePauseState(home, {
      projects: { [NS]: { at: '2026-11-23T09:00:00Z', until: '2026-11-23T11:00:00Z' } },
    });
    expect(captureOff(home, { namespace: NS, root }, now)).toBe('paused');
    expect(captureOff(home, { namespace: OTHER, root }, now)).toBeUndefined();
    // The hour is over: capture is back without a resume.
    expect(captureOff(home, { namespace: NS, root }, now + 2 * 3600_000)).toBeUndefined();
    writePauseState(home, { all: { at: '2026-11-23T09:00:00Z' } });
    expect(captureOff(home, { namespace: OTHER, root }, now + 1e9)).toBe('paused');
  });

  it('keeps out a repository with .kiro-learn-ignore at its root', () => {
    const root = temp();
    writeFileSync(join(root, '.kiro-learn-ignore'), '');
    expect(captureOff(temp(), { namespace: NS, root })).toBe('ignored');
  });

  it('keeps out directories the exclude globs name, and the home directory unless asked', () => {
    const home = temp();
    const root = join(home, 'tmp', 'scratch');
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ capture: { exclude: [`${home}/tmp/**`] } }),
    );
    expect(captureOff(home, { namespace: NS, root })).toBe('excluded');
    expect(captureOff(home, { namespace: NS, root: temp() })).toBeUndefined();
    expect(captureOff(home, { namespace: NS, root: home, source: 'global' })).toBe('home');
    expect(
      captureOff(home, { namespace: NS, root: home, source: 'global' }, Date.now(), {
        homeDirectory: true,
      }),
    ).toBeUndefined();
  });
});

describe('globMatches', () => {
  const home = '/home/dev';
  it.each([
    ['~/tmp/**', '/home/dev/tmp', true],
    ['~/tmp/**', '/home/dev/tmp/a/b', true],
    ['~/tmp/**', '/home/dev/tmpfoo', false],
    ['~/clients/*', '/home/dev/clients/acme/api', true],
    ['~/clients/*', '/home/dev/clients', false],
    ['/work/**/secret', '/work/a/b/secret', true],
    ['/work/**/secret', '/work/secret', true],
    ['/work/proj?', '/work/proj1', true],
    ['/work/proj.x', '/work/projax', false],
    ['~/src/app', '/home/dev/src/app/sub', true],
  ])('%s vs %s → %s', (glob, dir, expected) => {
    expect(globMatches(glob, dir, home)).toBe(expected);
  });
});
