// Against the real collector (apps/collector/dist/cli.js, a child process on a free port
// with its own data dir): context reaches stdout, and nothing is lost while it is down.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newRecord } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { outputOf } from '@kiro-learn/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';
import { spoolStatus } from '../src/spool.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const cli = join(repo, 'apps', 'collector', 'dist', 'cli.js');
const base = realpathSync(mkdtempSync(join(tmpdir(), 'kl-collector-')));
const project = join(base, 'payments-api');
let port: number;
let collector: ChildProcess | undefined;
const env = (): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'],
  HOME: base,
  KIRO_LEARN_HOME: join(base, 'data'),
  KIRO_LEARN_PORT: String(port),
  KIRO_LEARN_ACTOR: 'dev',
  KIRO_LEARN_AUTOSTART: '0',
});
const namespace = () => projectIdentity(project, { env: env(), home: base }).namespace;
const url = (path: string) => `http://127.0.0.1:${port}${path}`;

async function startCollector(): Promise<void> {
  collector = spawn(process.execPath, [cli, 'start', '--foreground'], {
    env: env(),
    stdio: 'ignore',
  });
  // Readiness, not timing: wait until it answers (or give up after a generous while).
  for (let attempt = 0; attempt < 400; attempt++) {
    if ((await fetch(url('/healthz')).catch(() => undefined))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the collector did not come up on port ${port}`);
}

/**
 * Stops the collector: SIGTERM, and SIGKILL if it is still up after 30 s. How the daemon
 * shuts down under load is the fault suite's concern; here the spool must survive either.
 */
async function stopCollector(): Promise<void> {
  const child = collector;
  collector = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

function hook(
  payload: object,
  script = 'claude-code',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(defaultBundleDir(), `${script}.cjs`)], {
    cwd: base,
    env: env(),
  });
  child.stdin.end(JSON.stringify({ session_id: 'sess-1', cwd: project, ...payload }));
  return outputOf(child);
}

async function storedEvents(): Promise<{ event_id: string; kind: string }[]> {
  const answer = await fetch(
    url(`/v1/events?namespace=${encodeURIComponent(namespace())}&limit=500`),
  );
  return ((await answer.json()) as { items: { event_id: string; kind: string }[] }).items;
}

beforeAll(async () => {
  if (!existsSync(cli)) {
    execFileSync(
      join(repo, 'node_modules', '.bin', 'turbo'),
      ['run', 'build', '--filter=kiro-learn...', '--output-logs=errors-only'],
      { cwd: repo, stdio: 'ignore' },
    );
  }
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{}');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  await startCollector();
}, 120_000);

afterAll(stopCollector);

describe('shim and collector', () => {
  it('prints the context the collector returned for a prompt, and nothing else', async () => {
    const record = newRecord({
      namespace: namespace(),
      strategy: 'builtin',
      title: 'Stripe webhooks need the raw request body',
      summary: 'constructEvent verifies the signature over the raw body; express.json() breaks it.',
      facts: ['Use express.raw({ type: "application/json" }) on the webhook route'],
      concepts: ['stripe', 'webhook'],
      files_touched: ['src/webhooks/stripe.ts'],
    });
    const saved = await fetch(url('/v1/memories'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    expect(saved.status).toBe(200);

    const ran = await hook({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'why does the stripe webhook signature fail?',
    });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe('');
    expect(
      ran.stdout.startsWith(
        '## Prior observations from kiro-learn\n\n### Stripe webhooks need the raw request body\n',
      ),
    ).toBe(true);
    expect(ran.stdout).toContain(record.summary);
    expect(ran.stdout).toContain(`- ${record.facts[0]}`);
    expect((await storedEvents()).filter((event) => event.kind === 'prompt')).toHaveLength(1);
  });

  it('gives Gemini CLI and Codex the context as JSON, the only stdout they accept', async () => {
    const saved = await fetch(url('/v1/memories'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        newRecord({
          namespace: namespace(),
          strategy: 'builtin',
          title: 'Rate limits are keyed on the API key',
          summary: 'express-rate-limit on POST /payments uses the API key header as its key.',
          concepts: ['rate-limit'],
          observation_type: 'decision',
        }),
      ),
    });
    expect(saved.status).toBe(200);
    for (const [script, hookEventName] of [
      ['gemini-cli', 'BeforeAgent'],
      ['codex', 'UserPromptSubmit'],
    ] as const) {
      // Sessions of their own: a session is not given the same memory twice.
      const ran = await hook(
        {
          hook_event_name: hookEventName,
          session_id: `${script}-1`,
          prompt: 'which key does the payments rate limit use?',
        },
        script,
      );
      expect(ran).toMatchObject({ code: 0, stderr: '' });
      const answer = JSON.parse(ran.stdout);
      expect(answer.hookSpecificOutput.hookEventName).toBe(hookEventName);
      expect(answer.hookSpecificOutput.additionalContext).toMatch(
        /^## Prior observations from kiro-learn\n\n### Rate limits are keyed on the API key\n/,
      );
    }
  });

  it("prints the project's latest turn summary at session start", async () => {
    const summary = newRecord({
      namespace: namespace(),
      strategy: 'builtin',
      title: 'Users table moved to uuid primary keys',
      summary: 'Migration 0007 switched users.id to UUID; next: backfill the audit log.',
      files_touched: ['migrations/0007_users_uuid.sql'],
      observation_type: 'session_summary',
    });
    const saved = await fetch(url('/v1/memories'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(summary),
    });
    expect(saved.status).toBe(200);
    const ran = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe('');
    // The session-start overview: open problems and decisions come before what changed.
    expect(ran.stdout).toMatch(/^## Prior observations from kiro-learn\n\n/);
    expect(ran.stdout).toContain('\n### Users table moved to uuid primary keys\n');
  });

  it('prints nothing for a tool hook and stores its event', async () => {
    const before = (await storedEvents()).length;
    const ran = await hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'a.ts' },
      tool_response: 'ok',
    });
    expect(ran).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await storedEvents()).toHaveLength(before + 1);
  });

  it('stores a hook that fired twice at once (two configurations of one agent) once', async () => {
    const before = (await storedEvents()).length;
    const payload = {
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'pnpm lint' },
      tool_response: 'fired twice',
    };
    const twice = await Promise.all([hook(payload), hook(payload)]);
    for (const ran of twice) expect(ran).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await storedEvents()).toHaveLength(before + 1);
    // A different tool use a moment later is its own event.
    await hook({ ...payload, tool_response: 'ran again, other output' });
    expect(await storedEvents()).toHaveLength(before + 2);
  });

  it('spools while the collector is stopped and replays once it is back', async () => {
    await stopCollector();
    const down = await hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'pnpm test' },
      tool_response:
        'down 1 with ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 <private>my notes</private>',
    });
    const down2 = await hook({ hook_event_name: 'Stop' });
    for (const ran of [down, down2]) {
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe('');
      expect(ran.stderr).toMatch(/did not take the event \(ECONNREFUSED\); kept in the spool/);
    }
    const spool = join(base, 'data', 'spool', 'pending.jsonl');
    const spooled = readFileSync(spool, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).event_id);
    expect(spooled).toHaveLength(2);
    // What waits on disk for the collector is scrubbed like everything stored.
    const onDisk = readFileSync(spool, 'utf8');
    expect(onDisk).not.toContain('ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789');
    expect(onDisk).not.toContain('my notes');
    expect(onDisk).toContain('[REDACTED:github_token]');
    await startCollector();

    const up = await hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: 'up',
    });
    expect(up).toEqual({ code: 0, stdout: '', stderr: '' });
    const ids = (await storedEvents()).map((event) => event.event_id);
    for (const id of spooled) expect(ids.filter((stored) => stored === id)).toHaveLength(1);
    expect(spoolStatus(join(base, 'data')).pending).toBe(0);
  });
});
