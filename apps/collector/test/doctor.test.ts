import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { cli, envFor, freePort, NO_MODEL, tempHome, waitFor } from '@kiro-learn/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEvent } from './helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const NS = '/actor/dev/project/flaky-agent/';

describe('kiro-learn doctor and status with a failing compressor agent', () => {
  it('say that extraction is paused, for which project, why, and what to do', async () => {
    const home = tempHome();
    mkdirSync(home, { recursive: true });
    // Retry quickly so three failures (the breaker's threshold) happen within the test.
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ buffer: { idleMs: 100 } }));
    const port = await freePort();
    const env = envFor(home, port, {
      ...NO_MODEL,
      KIRO_LEARN_EXTRACTOR: 'acp',
      KIRO_LEARN_COMPRESSOR_COMMAND: testAgentCommand('crash').join(' '),
    });
    cleanups.push(() => {
      cli(['stop'], env);
      rmSync(home, { recursive: true, force: true });
    });
    expect(cli(['start'], env).code).toBe(0);
    const res = await fetch(`http://127.0.0.1:${port}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        makeEvent({
          namespace: NS,
          kind: 'session_summary',
          body: { type: 'text', content: 'done' },
        }),
      ),
    });
    expect(res.status).toBe(200);

    // Waited for on the collector's status (one HTTP request a round, not a CLI process).
    await waitFor('the breaker to open', async () => {
      const status = (await (await fetch(`http://127.0.0.1:${port}/v1/status`)).json()) as {
        projects?: Array<{ namespace: string; breaker: { state: string } }>;
      };
      const project = status.projects?.find((p) => p.namespace === NS);
      return project?.breaker.state === 'open' ? true : undefined;
    });
    const doctor = cli(['doctor'], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      new RegExp(
        `✗ extraction paused for ${NS.replaceAll('/', '\\/')}: circuit breaker open after 3 failures \\(last error: .+\\)`,
      ),
    );
    expect(doctor.stdout).toMatch(/→ fix the cause \(kiro-learn logs\); it retries by itself at /);

    const status = cli(['status', '--json'], env);
    const report = JSON.parse(status.stdout) as {
      projects: Array<{ namespace: string; breaker: string; pending_events: number }>;
    };
    expect(report.projects).toContainEqual(
      expect.objectContaining({ namespace: NS, breaker: 'open', pending_events: 1 }),
    );
    expect(cli(['status'], env).stdout).toMatch(
      /extraction paused \(breaker open after 3 failures\)/,
    );
  });
});

/** A project (a package.json named `name`) in `root`/project. */
function projectIn(root: string, name: string) {
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name })}\n`);
  return { root, project };
}

describe('kiro-learn doctor and agents that run each other’s hooks', () => {
  it("says when Cursor runs Claude Code's hooks, and that each turn is recorded once", async () => {
    const { root, project } = projectIn(tempHome(), 'both-agents');
    const env = { ...envFor(join(root, 'data'), await freePort(), NO_MODEL), HOME: root };
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    expect(cli(['init', '--surface', 'claude-code,cursor', '--yes'], env, project).code).toBe(0);
    const doctor = cli(['doctor'], env, project);
    expect(doctor.stdout).toMatch(
      /Claude Code's hooks also run in other agents: Cursor runs them when "Include third-party Plugins, Skills, and other configs" is on .*Each turn is recorded once/,
    );
    expect(doctor.stdout).toMatch(
      /hooks installed in .*\.claude\/settings\.local\.json.*\.cursor\/hooks\.json/,
    );
  });
});

describe('kiro-learn doctor and the hooks’ fast path', () => {
  it('says which path hooks take, and why', async () => {
    const { root, project } = projectIn(tempHome(), 'fast-hooks');
    const env = { ...envFor(join(root, 'data'), await freePort(), NO_MODEL), HOME: root };
    cleanups.push(() => {
      cli(['stop'], env);
      rmSync(root, { recursive: true, force: true });
    });
    expect(cli(['init', '--surface', 'claude-code', '--yes'], env, project).code).toBe(0);
    expect(cli(['doctor'], env, project).stdout).toMatch(
      /✓ hooks take the Node path: the collector is not running \(the shim spools and starts it\)/,
    );
    expect(cli(['start'], env).code).toBe(0);
    expect(cli(['doctor'], env, project).stdout).toMatch(
      /✓ hooks take the fast path: sh \+ \/\S*(bash \(\/dev\/tcp\) \+ cat|curl) to the collector, no Node/,
    );
    expect(cli(['doctor'], { ...env, KIRO_LEARN_ACTOR: 'someone' }, project).stdout).toMatch(
      /hooks take the Node path: KIRO_LEARN_ACTOR set: the shim applies it/,
    );

    // Installed where neither bash nor curl was on the PATH: no fast path to take.
    const bare = { ...env, KIRO_LEARN_HOME: join(root, 'data-no-curl'), PATH: join(root, 'empty') };
    expect(cli(['init', '--surface', 'claude-code', '--yes'], bare, project).code).toBe(0);
    const doctor = cli(['doctor'], bare, project).stdout;
    expect(doctor).toMatch(
      /! hooks take the Node path: the launcher has no fast path: init found neither bash \(4\.4 or newer, with \/dev\/tcp\) nor curl/,
    );
    expect(doctor).toMatch(
      /→ install curl \(or bash 4\.4 or newer\), then run kiro-learn init again/,
    );
  });
});
