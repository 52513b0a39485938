// The real bundled hook scripts as child processes: whatever arrives, exit 0, nothing on
// stdout but context, one `[kiro-learn]` line on stderr, and the event kept when it can be.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS, utf8Length } from '@kiro-learn/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';

const bin = (surface: string) => join(defaultBundleDir(), `${surface}.cjs`);
let closedPort: number;

beforeAll(async () => {
  // A port nothing listens on: the collector is "down".
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
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
