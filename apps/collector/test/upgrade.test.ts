// After an upgrade: the hook scripts `init` copied into the data dir are the old release's.
// --version and doctor say so with both versions; the collector refreshes them on start;
// and the refreshed hook records into the running collector.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, envFor, freePort, tempHome } from './child.js';

const root = realpathSync(tempHome());
const home = join(root, 'data');
const project = join(root, 'project');
let env: NodeJS.ProcessEnv;
afterAll(() => {
  if (env) cli(['stop'], env);
  rmSync(root, { recursive: true, force: true });
});

const { version } = JSON.parse(
  readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
) as { version: string };
const script = join(home, 'bin', 'kiro-learn-claude-code.cjs');

describe('upgrading over an older release', () => {
  it('--version and doctor print both versions; start refreshes the old hook scripts', async () => {
    env = { ...envFor(home, await freePort()), HOME: root };
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), '{"name":"upgrade-demo"}\n');
    expect(cli(['init', '--surface', 'claude-code', '--yes'], env, project).code).toBe(0);
    const current = readFileSync(script, 'utf8');
    const shimsVersion = /^\/\/ kiro-learn hook script (\S+)$/m.exec(current)?.[1];
    expect(shimsVersion).toMatch(/^\d+\.\d+\.\d+/);

    let versions = cli(['--version'], env).stdout.split('\n');
    expect(versions.slice(0, 2)).toEqual([
      version,
      `hook scripts ${shimsVersion} in ${join(home, 'bin')}`,
    ]);

    // What the previous release left behind: an older script in the same place.
    writeFileSync(script, current.replace(/hook script \S+/, 'hook script 0.0.1'));
    versions = cli(['--version'], env).stdout.split('\n');
    expect(versions[1]).toBe(
      `hook scripts 0.0.1 in ${join(home, 'bin')}, older than this kiro-learn: kiro-learn restart refreshes them`,
    );
    const doctor = cli(['doctor'], env, project);
    expect(doctor.stdout).toContain(
      `! kiro-learn ${version}; hook scripts 0.0.1 in ${join(home, 'bin')}, older than this kiro-learn\n    → refresh them: kiro-learn restart (the collector refreshes them when it starts)`,
    );

    expect(cli(['start'], env).code).toBe(0);
    expect(readFileSync(script, 'utf8')).toBe(current);
    expect(cli(['--version'], env).stdout.split('\n')[1]).toBe(
      `hook scripts ${shimsVersion} in ${join(home, 'bin')}`,
    );
    expect(cli(['doctor'], env, project).stdout).toContain(
      `✓ kiro-learn ${version}; hook scripts ${shimsVersion} in ${join(home, 'bin')}`,
    );

    // The refreshed script, run as Claude Code runs it, records into this collector.
    const hook = spawnSync(process.execPath, [script], {
      input: JSON.stringify({
        session_id: 'upgrade-session',
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'after the upgrade, does capture still work?',
      }),
      env,
      encoding: 'utf8',
    });
    expect(hook.status).toBe(0);
    const status = JSON.parse(cli(['status', '--json'], env).stdout) as { events?: number };
    expect(status.events).toBe(1);
  });
});
