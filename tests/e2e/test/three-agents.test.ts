import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraction, get, makeWorld, repoRoot, startCollector, type World } from './harness.js';

// Claude Code, Codex CLI and Kiro CLI in one repository, as a team mixing agents has them:
// `kiro-learn init` installs all three, and each agent's hooks run exactly the command
// init wrote into that agent's own configuration (through `sh -c`, as the agents run
// them). What one agent learned reaches the next one's prompt.

const PAYLOADS = join(repoRoot, 'packages/shims/test/fixtures/hook-payloads');

/** An agent's own payload from the repository's fixtures, moved into this test's project. */
function payload(agent: string, name: string, project: string): Record<string, unknown> {
  const text = readFileSync(join(PAYLOADS, agent, `${name}.json`), 'utf8');
  return JSON.parse(text.replaceAll('/home/dev/src/payments-api', project));
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('Claude Code, Codex and Kiro in one repository', () => {
  let world: World;
  let namespace: string;
  let commands: { claude: string; codex: string; kiro: string };

  /** Runs an installed hook command as the agent does: `sh -c`, the payload on stdin. */
  function run(command: string, input: unknown) {
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: world.project,
      env: world.env,
      input: JSON.stringify(input),
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  beforeAll(async () => {
    world = await makeWorld({ KIRO_LEARN_EXTRACTOR: 'builtin' });
    namespace = projectIdentity(world.project, { env: world.env }).namespace;
    const installed = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'apps/collector/dist/cli.js'),
        'init',
        '--surface',
        'claude-code,codex,kiro-cli',
        '--yes',
      ],
      { cwd: world.project, env: world.env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const p = world.project;
    commands = {
      claude: json(join(p, '.claude/settings.local.json')).hooks.UserPromptSubmit[0].hooks[0]
        .command,
      codex: json(join(p, '.codex/hooks.json')).hooks.UserPromptSubmit[0].hooks[0].command,
      kiro: json(join(p, '.kiro/agents/kiro-learn.json')).hooks.userPromptSubmit[0].command,
    };
    startCollector(world);
  });
  afterAll(() => world?.cleanup());

  it('Claude Code: a failed test run and its answer become memory', async () => {
    const p = world.project;
    const turn = [
      {
        ...payload('claude-code', 'UserPromptSubmit', p),
        prompt: 'why do the stripe webhook tests fail?',
      },
      payload('claude-code', 'PostToolUseFailure', p),
      payload('claude-code', 'Stop', p),
    ];
    for (const input of turn)
      expect(run(commands.claude, input)).toMatchObject({ code: 0, stderr: '' });
    const done = await extraction(world, namespace);
    expect(done).toMatchObject({ status: 'ok', extractor: 'builtin' });
    expect(done.records).toBeGreaterThan(0);
  });

  it("Codex: its prompt gets Claude Code's memory, as JSON; its turn is recorded", async () => {
    const p = world.project;
    const before = await extraction(world, namespace);
    const asked = run(commands.codex, {
      ...payload('codex', 'UserPromptSubmit', p),
      prompt: 'the stripe webhook tests fail with StripeSignatureVerificationError again, why?',
    });
    expect(asked).toMatchObject({ code: 0, stderr: '' });
    const context = JSON.parse(asked.stdout).hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^## Prior observations from kiro-learn\n/);
    expect(context).toContain('StripeSignatureVerificationError');
    for (const name of ['PostToolUse-apply_patch', 'Stop']) {
      expect(run(commands.codex, payload('codex', name, p))).toMatchObject({
        code: 0,
        stdout: '{}\n',
        stderr: '',
      });
    }
    expect(await extraction(world, namespace, before.id)).toMatchObject({ status: 'ok' });
  });

  it("Kiro CLI: its prompt gets the fix Codex made; all three agents' events are one project's", async () => {
    const asked = run(commands.kiro, {
      hook_event_name: 'userPromptSubmit',
      cwd: world.project,
      prompt: 'what consumed the stripe webhook body before constructEvent?',
    });
    expect(asked).toMatchObject({ code: 0, stderr: '' });
    expect(asked.stdout).toMatch(/^## Prior observations from kiro-learn\n/);
    // Said only in the Codex turn (its Stop's last_assistant_message).
    expect(asked.stdout).toContain('express.json() consumed the body before constructEvent');
    const events = await get<{ items: Event[] }>(
      world,
      `/v1/events?namespace=${encodeURIComponent(namespace)}&limit=100`,
    );
    expect(new Set(events.items.map((event) => event.source.surface))).toEqual(
      new Set(['claude-code', 'codex', 'kiro-cli']),
    );
  });
});
