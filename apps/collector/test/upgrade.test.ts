// After an upgrade: the hook scripts `init` copied into the data dir are the old release's.
// --version and doctor say so with both versions; the collector refreshes them on start;
// and the refreshed hook records into the running collector.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { cli, envFor, freePort, tempHome } from '@kiro-learn/test-harness';
import { afterAll, describe, expect, it } from 'vitest';

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

describe('a database written by the previous release', () => {
  // test/fixtures/previous-release: made by scripts/make-release-db.ts on that release.
  const fixture = (name: string) =>
    fileURLToPath(new URL(`fixtures/previous-release/${name}`, import.meta.url));
  const manifest = JSON.parse(readFileSync(fixture('manifest.json'), 'utf8')) as {
    version: string;
    migrations: string[];
    namespace: string;
    events: Array<{ event_id: string; body: unknown }>;
    record: { record_id: string; title: string };
  };

  it('opens with this release, migrated forward, keeping every event and record, and takes new ones', async () => {
    const dataDir = join(root, 'previous-release');
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(fixture('kiro-learn.db'), join(dataDir, 'kiro-learn.db'));
    const port = await freePort();
    const oldEnv = envFor(dataDir, port);
    expect(cli(['start'], oldEnv).code).toBe(0);
    try {
      const base = `http://127.0.0.1:${port}`;
      const get = async (path: string) => (await fetch(`${base}${path}`)).json();
      for (const event of manifest.events) {
        expect(await get(`/v1/events/${event.event_id}`)).toMatchObject({ body: event.body });
      }
      expect(await get(`/v1/memories/${manifest.record.record_id}`)).toMatchObject({
        title: manifest.record.title,
      });
      const query = new URLSearchParams({ namespace: manifest.namespace, query: 'stripe webhook' });
      const hits = (await get(`/v1/memories/search?${query}`)) as Array<{ record_id: string }>;
      expect(hits.map((hit) => hit.record_id)).toContain(manifest.record.record_id);

      const next = { ...manifest.events[0]!, event_id: '01KA0000000000000000000009' };
      const posted = await fetch(`${base}/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...next, valid_time: new Date().toISOString() }),
      });
      expect(posted.status).toBe(200);
      expect(await get('/v1/events/01KA0000000000000000000009')).toMatchObject({
        event_id: '01KA0000000000000000000009',
      });
    } finally {
      expect(cli(['stop'], oldEnv).code).toBe(0);
    }
    const db = new DatabaseSync(join(dataDir, 'kiro-learn.db'), { readOnly: true });
    const applied = db
      .prepare('SELECT name FROM schema_migrations ORDER BY name')
      .all()
      .map((row) => (row as { name: string }).name);
    db.close();
    expect(applied.slice(0, manifest.migrations.length)).toEqual(manifest.migrations);
  });
});
