// The real bundled hook scripts as child processes: whatever arrives, exit 0, nothing on
// stdout but context, one `[kiro-learn]` line on stderr, and the event kept when it can be.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS, utf8Length } from '@kiro-learn/schema';
import { freePort } from '@kiro-learn/test-harness';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';
import { SPOOL_MAX_BYTES, spoolStatus } from '../src/spool.js';

const bin = (surface: string) => join(defaultBundleDir(), `${surface}.cjs`);
let closedPort: number;

beforeAll(async () => {
  // A port nothing listens on: the collector is "down".
  closedPort = await freePort();
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  home: string;
}

function run(
  surface: string,
  stdin: Buffer | string | undefined,
  extraEnv: NodeJS.ProcessEnv = {},
  args: string[] = [],
): Promise<Ran> {
  const home = mkdtempSync(join(tmpdir(), 'kl-shim-'));
  const child = spawn(process.execPath, [bin(surface), ...args], {
    cwd: home,
    env: {
      PATH: process.env['PATH'],
      // Elsewhere: the home directory (and its ancestors) is never captured.
      HOME: `${home}.home`,
      KIRO_LEARN_HOME: join(home, 'data'),
      KIRO_LEARN_PORT: String(closedPort),
      KIRO_LEARN_AUTOSTART: '0',
      ...extraEnv,
    },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr, home })),
  );
}

const spooled = (home: string) =>
  readFileSync(join(home, 'data', 'spool', 'pending.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

const tool = (response: unknown) =>
  JSON.stringify({
    hook_event_name: 'PostToolUse',
    session_id: 's1',
    cwd: '/tmp/p',
    tool_name: 'Read',
    tool_input: { file: 'a' },
    tool_response: response,
  });

describe('a hook process', () => {
  it.each([
    ['empty stdin', ''],
    ['white space only', ' \n'],
    ['malformed JSON', '{"hook_event_name": "PostToolUse", '],
    ['a JSON array', '[1, 2]'],
    ['no hook name', '{"cwd": "/tmp"}'],
  ])('exits 0 on %s, with one stderr line and no stdout', async (_name, stdin) => {
    const ran = await run('claude-code', stdin);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr).toMatch(/^\[kiro-learn\] .+; nothing recorded\n$/);
  });

  it('reads a payload that starts with a UTF-8 byte order mark (cursor-agent sends one)', async () => {
    const ran = await run(
      'cursor',
      `\ufeff${JSON.stringify({ hook_event_name: 'beforeSubmitPrompt', prompt: 'hi', workspace_roots: ['/tmp/p'], conversation_id: 'c1' })}`,
    );
    expect(ran).toMatchObject({ code: 0, stdout: '{"continue":true}\n' });
    expect(spooled(ran.home)[0]).toMatchObject({ kind: 'prompt', session_id: 'c1' });
  });

  it('uses the working directory when the payload has no cwd, and says so', async () => {
    const ran = await run('kiro', '{"hook_event_name": "postToolUse", "tool_name": "fs_read"}');
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr).toMatch(/^\[kiro-learn\] the postToolUse payload has no cwd; using /m);
    expect(spooled(ran.home)[0]).toMatchObject({
      kind: 'tool_use',
      source: { project_path: ran.home },
    });
  });

  it('truncates a 5 MiB tool response to the body cap and keeps the event', async () => {
    const ran = await run('claude-code', tool({ content: 'x'.repeat(5 * 1024 * 1024) }));
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(ran.stderr).toMatch(
      /^\[kiro-learn\] the PostToolUse payload was over 524288 bytes and was truncated$/m,
    );
    const [event] = spooled(ran.home);
    expect(utf8Length(JSON.stringify(event.body))).toBeLessThanOrEqual(LIMITS.shimBodyBytes);
    expect(event.body.data.tool_input).toEqual({ file: 'a' });
  });

  it('replaces a non-UTF-8 byte, says so, and keeps the event', async () => {
    const bytes = Buffer.from(tool('caf~'));
    bytes[bytes.indexOf('~')] = 0xe9; // Latin-1 é: not UTF-8
    const ran = await run('claude-code', bytes);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(spooled(ran.home)[0].body.data.tool_response).toBe('caf\uFFFD');
    expect(ran.stderr).toMatch(/not valid UTF-8/);
  });

  it('never waits on a Claude Code transcript path that is a FIFO', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'kl-fifo-')), 't.jsonl');
    execFileSync('mkfifo', [fifo]);
    const stop = {
      hook_event_name: 'Stop',
      session_id: 's1',
      cwd: '/tmp/p',
      transcript_path: fifo,
    };
    const ran = await run('claude-code', JSON.stringify(stop));
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(spooled(ran.home)[0]).toMatchObject({
      kind: 'session_summary',
      body: { type: 'text', content: '' },
    });
  });

  it('keeps or counts every event when concurrent hooks meet the full spool', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kl-cap-'));
    const spool = join(home, 'data', 'spool');
    mkdirSync(spool, { recursive: true });
    // A spool 2 KiB short of its cap: every hook below pushes it over.
    const line = `${JSON.stringify({ event_id: 'OLD', body: { type: 'text', content: 'x'.repeat(1000) } })}\n`;
    const prefilled = Math.floor((SPOOL_MAX_BYTES - 2048) / Buffer.byteLength(line));
    writeFileSync(join(spool, 'pending.jsonl'), line.repeat(prefilled));
    const env = { KIRO_LEARN_HOME: join(home, 'data') };
    const hooks = 20;
    const runs = await Promise.all(
      Array.from({ length: hooks }, (_, i) => run('claude-code', tool(`hook ${i}`), env)),
    );
    for (const ran of runs) expect(ran).toMatchObject({ code: 0, stdout: '' });
    const status = spoolStatus(join(home, 'data'));
    expect(status.pending + status.dropped).toBe(prefilled + hooks);
    // Nothing kept twice: what is counted as dropped is gone.
    const kept = readdirSync(spool)
      .filter((name) => name.endsWith('.jsonl'))
      .flatMap((name) => readFileSync(join(spool, name), 'utf8').split('\n').filter(Boolean))
      .map((text) => JSON.parse(text))
      .filter((event) => event.kind === 'tool_use')
      .map((event) => event.body.data.tool_response);
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept.length).toBeGreaterThan(0);
  }, 120_000);

  it.each([
    ['a 404 page', 404, 'text/html', '<h1>Not Found</h1>'],
    ['a JSON 404', 404, 'application/json', '{"error":"not found"}'],
    ['a 200', 200, 'application/json', '{"ok":true}'],
  ])(
    'keeps the event when another program on the port answers with %s',
    async (_name, status, type, body) => {
      const server = createHttpServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(status, { 'content-type': type }).end(body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      try {
        const ran = await run('claude-code', tool('a'), { KIRO_LEARN_PORT: String(port) });
        expect(ran).toMatchObject({ code: 0, stdout: '' });
        expect(ran.stderr).toMatch(/from something that is not the collector\); kept in the spool/);
        expect(spooled(ran.home)).toHaveLength(1);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );

  it("applies the user's privacy.extraPatterns to what it spools", async () => {
    const home = mkdtempSync(join(tmpdir(), 'kl-extra-'));
    mkdirSync(join(home, 'data'));
    writeFileSync(
      join(home, 'data', 'settings.json'),
      JSON.stringify({
        privacy: { extraPatterns: [{ pattern: 'ACME-[0-9]{6}', kind: 'acme_id' }] },
      }),
    );
    const ran = await run(
      'claude-code',
      tool('customer ACME-123456 and ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'),
      {
        KIRO_LEARN_HOME: join(home, 'data'),
      },
    );
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    const text = readFileSync(join(home, 'data', 'spool', 'pending.jsonl'), 'utf8');
    expect(text).not.toContain('ACME-123456');
    expect(text).toContain('[REDACTED:acme_id]');
    expect(text).toContain('[REDACTED:github_token]');
  });

  it.each([
    [
      'gemini-cli',
      { hook_event_name: 'AfterTool', tool_name: 'read_file', tool_input: {}, tool_response: {} },
      '{}\n',
    ],
    ['gemini-cli', { hook_event_name: 'Notification' }, '{}\n'],
    ['gemini-cli', 'not json', '{}\n'],
    [
      'codex',
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_response: 'ok' },
      '{}\n',
    ],
    [
      'cursor',
      { hook_event_name: 'beforeSubmitPrompt', prompt: 'hi', workspace_roots: ['/tmp/p'] },
      '{"continue":true}\n',
    ],
    [
      'cline',
      {
        hookName: 'PostToolUse',
        taskId: 't1',
        workspaceRoots: ['/tmp/p'],
        postToolUse: { toolName: 'read_file', parameters: {}, result: 'x', success: true },
      },
      '{"cancel":false}\n',
    ],
    ['cline', 'not json', '{"cancel":false}\n'],
    [
      'windsurf',
      {
        agent_action_name: 'pre_user_prompt',
        trajectory_id: 't',
        tool_info: { user_prompt: 'hi' },
      },
      '',
    ],
    [
      'copilot',
      { hook_event_name: 'UserPromptSubmit', timestamp: '2026-11-20T08:30:00Z', prompt: 'hi' },
      '',
    ],
    [
      'cursor',
      {
        hook_event_name: 'afterShellExecution',
        command: 'ls',
        output: '',
        workspace_roots: ['/tmp/p'],
      },
      '',
    ],
  ])('answers a %s hook in its own format: %j', async (surface, payload, stdout) => {
    const ran = await run(
      surface,
      typeof payload === 'string'
        ? payload
        : JSON.stringify({ cwd: '/tmp/p', session_id: 's', ...payload }),
    );
    expect(ran).toMatchObject({ code: 0, stdout });
  });

  it('does nothing at all with KIRO_LEARN_CAPTURE=off: no output, nothing recorded', async () => {
    const ran = await run('claude-code', tool('a'), { KIRO_LEARN_CAPTURE: 'off' });
    expect(ran).toEqual({ code: 0, stdout: '', stderr: '', home: ran.home });
    expect(existsSync(join(ran.home, 'data'))).toBe(false);
  });

  it('reads legacy Kiro IDE payloads from USER_PROMPT without waiting on stdin', async () => {
    const ran = await run('kiro-ide', undefined, { USER_PROMPT: 'why does the test fail?' }, [
      'prompt',
    ]);
    expect(ran).toMatchObject({ code: 0, stdout: '' });
    expect(spooled(ran.home)[0]).toMatchObject({ kind: 'prompt', source: { surface: 'kiro-ide' } });
  });

  it('gives the hooks of one Kiro CLI session one session id, and a new one per spawn', async () => {
    const env = { KIRO_LEARN_HOME: join(mkdtempSync(join(tmpdir(), 'kl-sess-')), 'data') };
    const payload = (name: string) =>
      JSON.stringify({ hook_event_name: name, cwd: '/tmp/proj', prompt: 'p' });
    await run('kiro', payload('agentSpawn'), env);
    await run('kiro', payload('userPromptSubmit'), env);
    await run('kiro', payload('agentSpawn'), env);
    const events = readFileSync(join(env.KIRO_LEARN_HOME, 'spool', 'pending.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.kind)).toEqual(['note', 'prompt', 'note']);
    expect(events[1].session_id).toBe(events[0].session_id);
    expect(events[2].session_id).not.toBe(events[0].session_id);
  });

  it('starts the collector in the background once per window, without waiting for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kl-auto-'));
    const cli = join(dir, 'fake-cli.mjs');
    const marks = join(dir, 'starts');
    writeFileSync(
      cli,
      `import { appendFileSync } from 'node:fs'; appendFileSync(${JSON.stringify(marks)}, process.argv.slice(2).join(' ') + '\\n');`,
    );
    const env = {
      KIRO_LEARN_HOME: join(dir, 'data'),
      KIRO_LEARN_AUTOSTART: '1',
      KIRO_LEARN_CLI: cli,
    };
    const first = await run('claude-code', tool('a'), env);
    const second = await run('claude-code', tool('b'), env);
    expect(first.stderr).toMatch(/kept in the spool, starting the collector/);
    expect(second.stderr).not.toMatch(/starting the collector/);
    await expect.poll(() => existsSync(marks) && readFileSync(marks, 'utf8')).toBe('start\n');
  });
});
