// The data commands as users run them (the built CLI, child processes), with the collector
// running and stopped: forget, export, import, backup, restore, gc, pause, resume.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import {
  cliAsync,
  envFor,
  freePort,
  NO_MODEL,
  spawnCollector,
  tempHome,
} from '@kiro-learn/test-harness';
import { describe, expect, it } from 'vitest';
import { exportHeader, makeEvent, send } from './helpers.js';

/** The test's own onTestFinished (its cleanups run last first): the tests run side by side. */
type Cleanup = (fn: () => Promise<void> | void) => void;

async function setup(onFinished: Cleanup) {
  const base = tempHome();
  const home = join(base, 'data');
  const project = join(base, 'src', 'payments-api');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{}');
  const port = await freePort();
  // Without the embedding model: nothing here searches by meaning.
  const env = envFor(home, port, {
    ...NO_MODEL,
    KIRO_LEARN_ACTOR: 'dev',
    HOME: join(base, 'home'),
  });
  const namespace = projectIdentity(project, { env }).namespace;
  onFinished(() => rmSync(base, { recursive: true, force: true }));
  return { base, home, project, port, env, namespace, db: join(home, 'kiro-learn.db') };
}

async function running(onFinished: Cleanup, env: NodeJS.ProcessEnv, port: number) {
  const daemon = await spawnCollector(env, port);
  onFinished(async () => {
    await daemon.stop();
  });
  return daemon;
}

const fileHas = (db: string, needle: string) =>
  ['', '-wal'].some(
    (s) => existsSync(db + s) && readFileSync(db + s).includes(Buffer.from(needle)),
  );

// Every test has its own data dirs and ports, and runs the CLI as a child without blocking
// this process: they run side by side.
describe.concurrent('data commands', () => {
  it('forget, export and backup against a running collector; restore refuses while it runs', async ({
    onTestFinished,
  }) => {
    const box = await setup(onTestFinished);
    const daemon = await running(onTestFinished, box.env, box.port);
    const secret = `zq${newEventId().toLowerCase()}`;
    const mine = makeEvent({
      namespace: box.namespace,
      body: { type: 'text', content: `the key is ${secret}` },
    });
    const other = makeEvent({ namespace: '/actor/dev/project/other/' });
    for (const e of [mine, other]) {
      expect((await send(box.port, 'POST', '/v1/events', { body: e })).status).toBe(200);
    }

    const exported = await cliAsync(['export', '--out', 'all.jsonl'], box.env, box.base);
    expect(exported).toMatchObject({ code: 0 });
    expect(exported.stdout).toMatch(/exported 2 events and memories to .*all\.jsonl \(complete\)/);
    expect(readFileSync(join(box.base, 'all.jsonl'), 'utf8')).toContain(secret);

    const backup = await cliAsync(['backup', 'before.db'], box.env, box.base);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/backup written to .*before\.db/);
    const again = await cliAsync(['backup', 'before.db'], box.env, box.base);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/before\.db exists; name another file, or pass --force/);
    expect((await cliAsync(['backup', 'before.db', '--force'], box.env, box.base)).code).toBe(0);

    const refused = await cliAsync(['restore', 'before.db'], box.env, box.base);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the collector is running .*stop it first \(kiro-learn stop\)/);

    const asked = await cliAsync(['forget', '--project', box.project], box.env);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toMatch(/project \/actor\/dev\/project\/payments-api-\w+\/: 1 event/);
    expect(asked.stderr).toMatch(/pass --yes/);
    expect(fileHas(box.db, secret)).toBe(true);

    const forgot = await cliAsync(['forget', '--project', box.project, '--yes'], box.env);
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toMatch(/forgot 1 event/);
    expect(fileHas(box.db, secret)).toBe(false);
    expect((await send(box.port, 'GET', `/v1/events/${other.event_id}`)).status).toBe(200);
    expect(daemon.child.exitCode).toBeNull();
  });

  it("forget --project covers the project's earlier id from before its repository gained a remote", async ({
    onTestFinished,
  }) => {
    const box = await setup(onTestFinished);
    await running(onTestFinished, box.env, box.port);
    const repo = join(box.base, 'src', 'webshop');
    mkdirSync(repo, { recursive: true });
    expect(spawnSync('git', ['init', '-q'], { cwd: repo }).status).toBe(0);
    const capture = async (content: string) => {
      // What the hooks send: the namespace and root projectIdentity gives the directory now.
      const identity = projectIdentity(repo, { env: box.env });
      const e = makeEvent({
        namespace: identity.namespace,
        body: { type: 'text', content },
        source: {
          surface: 'claude-code',
          version: '1',
          client_id: 't',
          project_path: identity.root,
        },
      });
      expect((await send(box.port, 'POST', '/v1/events', { body: e })).status).toBe(200);
      return identity.namespace;
    };
    const secret = `zq${newEventId().toLowerCase()}`;
    const before = await capture(`the key is ${secret}`);
    expect(
      spawnSync('git', ['remote', 'add', 'origin', 'git@example.com:acme/webshop.git'], {
        cwd: repo,
      }).status,
    ).toBe(0);
    const after = await capture('after the remote');
    expect(after).not.toBe(before);

    const dry = await cliAsync(['forget', '--project', repo, '--dry-run'], box.env);
    expect(dry.stdout).toContain(`with the project's earlier ids: ${before}`);
    const forgot = await cliAsync(['forget', '--project', repo, '--yes'], box.env);
    expect(forgot).toMatchObject({ code: 0 });
    expect(forgot.stdout).toMatch(/forgot 2 events/);
    expect(fileHas(box.db, secret)).toBe(false);
    const projects = (await send(box.port, 'GET', '/v1/stats')).json.projects;
    expect(projects.map((p: { namespace: string }) => p.namespace)).not.toContain(before);
  });

  it('pause and resume one project while the collector runs; status shows it', async ({
    onTestFinished,
  }) => {
    const box = await setup(onTestFinished);
    await running(onTestFinished, box.env, box.port);
    expect(
      (await cliAsync(['pause', '--project', box.project, '--for', '1h'], box.env)).stdout,
    ).toMatch(/capture paused for .*payments-api .* until \d{4}-/);
    expect((await cliAsync(['status'], box.env)).stdout).toMatch(
      /capture paused for .*payments-api/,
    );
    const dropped = await send(box.port, 'POST', '/v1/events', {
      body: makeEvent({ namespace: box.namespace }),
    });
    expect(dropped.json).toMatchObject({ stored: false, skipped: 'paused' });
    expect((await cliAsync(['resume', '--project', box.project], box.env)).stdout).toMatch(
      /capture resumed/,
    );
    expect((await cliAsync(['status', '--json'], box.env)).stdout).not.toMatch(/paused/);
  });

  it('import into a stopped collector is idempotent and reports a cut-off file; restore keeps the old database aside', async ({
    onTestFinished,
  }) => {
    const source = await setup(onTestFinished);
    await running(onTestFinished, source.env, source.port);
    const events = Array.from({ length: 30 }, (_, i) =>
      makeEvent({ namespace: source.namespace, body: { type: 'text', content: `event ${i}` } }),
    );
    for (const e of events) await send(source.port, 'POST', '/v1/events', { body: e });
    const file = join(source.base, 'export.jsonl');
    expect((await cliAsync(['export', '--out', file], source.env)).code).toBe(0);
    expect((await cliAsync(['backup', join(source.base, 'b.db')], source.env)).code).toBe(0);

    const target = await setup(onTestFinished);
    const first = await cliAsync(['import', file], target.env);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toMatch(/added 30 events and 0 memories; skipped 0 events/);
    const second = await cliAsync(['import', file], target.env);
    expect(second.stdout).toMatch(/added 0 events and 0 memories; skipped 30 events/);

    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.length - 60));
    const cut = await cliAsync(['import', file], target.env);
    expect(cut.code).toBe(1);
    expect(cut.stdout).toMatch(/rejected 1 lines\n {2}line 31: not a JSON object/);
    expect(cut.stdout).toMatch(/ends before its end line: it may be cut off/);

    const restored = await cliAsync(['restore', join(source.base, 'b.db')], target.env);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /restored .*b\.db: 30 events, 0 memories; the previous database is kept at .*before-restore-/,
    );
    const status = await (async () => {
      await running(onTestFinished, target.env, target.port);
      return (await send(target.port, 'GET', '/v1/stats')).json;
    })();
    expect(status.events.total).toBe(30);
  });

  it('gc drops events past retention.events.maxAgeDays, and --dry-run only says what would go', async ({
    onTestFinished,
  }) => {
    const box = await setup(onTestFinished);
    const old = makeEvent({ namespace: box.namespace });
    const fresh = makeEvent({ namespace: box.namespace });
    const header = exportHeader({ events: 2, records: 0 }, 'test');
    const file = join(box.base, 'aged.jsonl');
    writeFileSync(
      file,
      [
        header,
        { type: 'event', received_at: '2020-01-01T00:00:00.000Z', event: old },
        { type: 'event', received_at: new Date().toISOString(), event: fresh },
        { type: 'end', events: 2, records: 0 },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    expect((await cliAsync(['import', file], box.env)).code).toBe(0);
    writeFileSync(
      join(box.home, 'settings.json'),
      JSON.stringify({ retention: { events: { maxAgeDays: 30 } } }),
    );
    const dry = await cliAsync(['gc', '--dry-run'], box.env);
    expect(dry).toMatchObject({ code: 0 });
    expect(dry.stdout).toMatch(/would delete 1 events .* maxAgeDays=30/);
    const done = await cliAsync(['gc'], box.env);
    expect(done.stdout).toMatch(/deleted 1 events .* maxAgeDays=30/);
    expect((await cliAsync(['gc'], box.env)).stdout).toMatch(
      /nothing is past the retention limits/,
    );
  });

  it('says what to do on bad input', async ({ onTestFinished }) => {
    const env = { ...process.env, KIRO_LEARN_HOME: tempHome() };
    onTestFinished(() => rmSync(env.KIRO_LEARN_HOME, { recursive: true, force: true }));
    const none = await cliAsync(['forget'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/say what to forget: one of --record ID/);
    expect((await cliAsync(['forget', '--before', 'yesterday'], env)).stderr).toMatch(
      /is not a date; use e\.g\. 2026-01-31/,
    );
    expect((await cliAsync(['pause', '--for', 'a while'], env)).stderr).toMatch(
      /not a duration; use e\.g\. 30m/,
    );
    expect((await cliAsync(['import'], env)).stderr).toMatch(/name one export file/);
    expect((await cliAsync(['import', 'nope.jsonl'], env)).stderr).toMatch(/does not exist/);
    expect((await cliAsync(['restore', 'nope.db'], env)).stderr).toMatch(/does not exist/);
  });
});
