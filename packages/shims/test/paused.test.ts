// The real bundled hook while capture is off: paused (all, or this project), an ignored
// repository, an excluded directory. It exits 0 at once, prints nothing, records nothing,
// and other projects are still recorded.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectIdentity } from '@kiro-learn/schema/node';
import { freePort, outputOf } from '@kiro-learn/test-harness';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';
import { writePauseState } from '../src/paused.js';

let closedPort: number;
beforeAll(async () => {
  closedPort = await freePort();
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const base = mkdtempSync(join(tmpdir(), 'kl-paused-'));
  dirs.push(base);
  const project = (name: string) => {
    const dir = join(base, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{}');
    return dir;
  };
  const env = {
    PATH: process.env['PATH'],
    HOME: join(base, 'home'),
    KIRO_LEARN_HOME: join(base, 'data'),
    KIRO_LEARN_PORT: String(closedPort),
    KIRO_LEARN_AUTOSTART: '0',
    KIRO_LEARN_ACTOR: 'dev',
  };
  mkdirSync(env.KIRO_LEARN_HOME, { recursive: true });
  const hook = (cwd: string) => {
    const child = spawn(process.execPath, [join(defaultBundleDir(), 'claude-code.cjs')], {
      cwd: base,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(
      JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: 's1',
        cwd,
        prompt: 'why does the webhook test fail?',
      }),
    );
    return outputOf(child);
  };
  const spooled = () => {
    const file = join(env.KIRO_LEARN_HOME, 'spool', 'pending.jsonl');
    return existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { namespace: string })
      : [];
  };
  return { base, env, project, hook, spooled };
}

describe('a hook while capture is off', () => {
  it('records and prints nothing for a paused project, and still records the others', async () => {
    const { env, project, hook, spooled } = setup();
    const paused = project('paused-app');
    const other = project('other-app');
    const ns = projectIdentity(paused, { env }).namespace;
    writePauseState(env.KIRO_LEARN_HOME, { projects: { [ns]: { at: new Date().toISOString() } } });
    expect(await hook(paused)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(spooled()).toEqual([]);
    expect((await hook(other)).code).toBe(0);
    expect(spooled().map((e) => e.namespace)).toEqual([projectIdentity(other, { env }).namespace]);
  });

  it('records nothing anywhere while everything is paused, until the pause runs out', async () => {
    const { env, project, hook, spooled } = setup();
    const app = project('app');
    writePauseState(env.KIRO_LEARN_HOME, {
      all: { at: new Date().toISOString(), until: new Date(Date.now() - 1000).toISOString() },
    });
    await hook(app);
    expect(spooled()).toHaveLength(1);
    writePauseState(env.KIRO_LEARN_HOME, { all: { at: new Date().toISOString() } });
    expect(await hook(app)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(spooled()).toHaveLength(1);
  });

  it('records nothing in a repository with .kiro-learn-ignore, nor in an excluded directory', async () => {
    const { base, env, project, hook, spooled } = setup();
    const ignored = project('client-repo');
    writeFileSync(join(ignored, '.kiro-learn-ignore'), '');
    const scratch = project(join('scratch', 'try'));
    writeFileSync(
      join(env.KIRO_LEARN_HOME, 'settings.json'),
      JSON.stringify({ capture: { exclude: [`${base}/scratch/**`] } }),
    );
    expect(await hook(ignored)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await hook(scratch)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(spooled()).toEqual([]);
  });

  it('records nothing from the home directory itself unless capture.homeDirectory is true', async () => {
    const { env, hook, spooled } = setup();
    mkdirSync(env.HOME, { recursive: true });
    expect(await hook(env.HOME)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(spooled()).toEqual([]);
    writeFileSync(
      join(env.KIRO_LEARN_HOME, 'settings.json'),
      JSON.stringify({ capture: { homeDirectory: true } }),
    );
    await hook(env.HOME);
    expect(spooled()).toHaveLength(1);
  });
});
