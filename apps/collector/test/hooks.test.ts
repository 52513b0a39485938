// POST /v1/hooks/:surface, the hook launcher's fast path, against a real collector on
// loopback: the agent's raw payload in, the same event the shim would store, and exactly
// what the hook prints out, behind the same local security as every POST.
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newRecordId } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import {
  FAST_PATH_FILE_MARK,
  FAST_PATH_MARK,
  spoolEvent,
  writePauseState,
} from '@kiro-learn/shims';
import { openSqliteStorage, StorageError } from '@kiro-learn/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../src/app.js';
import { normalizeSettings } from '../src/config/settings.js';
import { makeEvent, type Running, send, startCollector } from './helpers.js';

let c: Running;
const project = realpathSync(mkdtempSync(join(tmpdir(), 'kl-hook-project-')));
const namespace = projectIdentity(project).namespace;
writeFileSync(join(project, 'package.json'), '{}');

beforeAll(async () => {
  c = await startCollector({ semantic: { enabled: false } });
});
afterAll(() => c.close());

/** One hook as the launcher posts it. */
function hook(
  surface: string,
  payload: unknown,
  options: { headers?: Record<string, string>; query?: string; port?: number } = {},
) {
  return send(options.port ?? c.port, 'POST', `/v1/hooks/${surface}${options.query ?? ''}`, {
    body:
      typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload),
    headers: { 'x-kiro-learn-cwd': project, ...options.headers },
  });
}

/** What the hook prints: the answer after the mark, or undefined without the mark. */
function printed(text: string): string | undefined {
  return text.startsWith(`${FAST_PATH_MARK}\n`) ? text.slice(FAST_PATH_MARK.length + 1) : undefined;
}

async function events(): Promise<{ kind: string; body: unknown; session_id: string }[]> {
  const r = await send(c.port, 'GET', `/v1/events?namespace=${encodeURIComponent(namespace)}`);
  return r.json.items;
}

describe('POST /v1/hooks/:surface', () => {
  it('stores the event the agent module maps and answers with what the hook prints', async () => {
    const before = (await events()).length;
    const r = await hook('claude-code', {
      session_id: 'sess-fast',
      cwd: project,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'pnpm test' },
      tool_response: {
        stdout: 'ok, token ghp_0123456789abcdefghijABCDEFGHIJ012345 <private>x</private>',
      },
    });
    expect(r.status).toBe(200);
    expect(printed(r.text)).toBe('');
    const stored = await events();
    expect(stored).toHaveLength(before + 1);
    expect(stored[0]).toMatchObject({
      kind: 'tool_use',
      session_id: 'sess-fast',
      source: { surface: 'claude-code', project_path: project },
    });
    // Scrubbed before it was stored, as through the shim's POST.
    const text = JSON.stringify(stored[0]!.body);
    expect(text).not.toMatch(/ghp_0123|<private>|>x</);
  });

  it('answers a prompt with context in the agent’s shape (Codex: JSON)', async () => {
    const record = {
      record_id: newRecordId(),
      namespace,
      strategy: 'builtin',
      title: 'Deploys go through the release pipeline',
      summary: 'The webhook service deploys through the release pipeline, never by hand.',
      facts: ['release pipeline deploys the webhook service'],
      concepts: [],
      files_touched: [],
      observation_type: 'decision',
      source_event_ids: [makeEvent().event_id],
      created_at: new Date().toISOString(),
    };
    expect((await send(c.port, 'POST', '/v1/memories', { body: record })).status).toBe(200);
    const r = await hook('codex', {
      session_id: 'sess-codex',
      cwd: project,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'how does the webhook service deploy?',
    });
    expect(r.status).toBe(200);
    const answer = JSON.parse(printed(r.text)!);
    expect(answer.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(answer.hookSpecificOutput.additionalContext).toContain(record.title);
  });

  it('takes the command line’s words as ?arg= (Kiro workspace hooks installed for the IDE)', async () => {
    const r = await hook(
      'kiro',
      { hook_event_name: 'PostToolUse', cwd: project, tool_name: 'fsWrite', tool_input: {} },
      { query: '?arg=kiro-ide&' },
    );
    expect(r.status).toBe(200);
    expect((await events())[0]).toMatchObject({ source: { surface: 'kiro-ide' } });
  });

  it('deletes the launcher’s copy of the payload it names, and nothing else', async () => {
    mkdirSync(join(c.home, 'tmp'), { recursive: true });
    const spill = join(c.home, 'tmp', 'hook.4242');
    const other = join(c.home, 'tmp', 'keep.me');
    writeFileSync(spill, '{}');
    writeFileSync(other, 'x');
    const payload = { session_id: 's', cwd: project, hook_event_name: 'SubagentStop' };
    await hook('claude-code', payload, { headers: { 'x-kiro-learn-spill': 'hook.4242' } });
    await hook('claude-code', payload, { headers: { 'x-kiro-learn-spill': '../tmp/keep.me' } });
    expect(existsSync(spill)).toBe(false);
    expect(existsSync(other)).toBe(true);
  });

  it('reads a payload from the file it names and writes the answer into it (the bash launcher)', async () => {
    mkdirSync(join(c.home, 'tmp'), { recursive: true });
    const file = join(c.home, 'tmp', 'hook.4343');
    writeFileSync(
      file,
      JSON.stringify({
        session_id: 'sess-file',
        cwd: project,
        hook_event_name: 'BeforeAgent',
        prompt: 'how does the webhook service deploy?',
      }),
    );
    // The hook holds the file open, as bash does, and reads the answer from there.
    const held = openSync(file, 'r');
    try {
      const before = (await events()).length;
      const r = await hook('gemini-cli', '', {
        headers: { 'x-kiro-learn-payload-file': 'hook.4343' },
      });
      expect(r.status).toBe(200);
      expect(r.text).toBe(`${FAST_PATH_FILE_MARK}\n`);
      expect(await events()).toHaveLength(before + 1);
      expect(existsSync(file)).toBe(false);
      const answer = JSON.parse(readFileSync(held, 'utf8'));
      expect(answer.hookSpecificOutput.additionalContext).toContain('release pipeline');
    } finally {
      closeSync(held);
    }
  });

  it('takes a payload file only of the launcher’s naming, in its own tmp/, never a link', async () => {
    mkdirSync(join(c.home, 'tmp'), { recursive: true });
    const outside = join(project, 'secret.json');
    writeFileSync(outside, '{"hook_event_name":"Stop"}');
    symlinkSync(outside, join(c.home, 'tmp', 'hook.4444'));
    for (const name of ['../../secret.json', 'hook.4444', 'hook.4545']) {
      const r = await hook('claude-code', '', { headers: { 'x-kiro-learn-payload-file': name } });
      expect(r.status).toBe(400);
      expect(printed(r.text)).toBeUndefined();
    }
    expect(readFileSync(outside, 'utf8')).toBe('{"hook_event_name":"Stop"}');
    // One over the request limit is left to the shim, as such a body is.
    const big = join(c.home, 'tmp', 'hook.4646');
    writeFileSync(big, `{"prompt":"${'x'.repeat(3 * 1024 * 1024)}"}`);
    const r = await hook('claude-code', '', {
      headers: { 'x-kiro-learn-payload-file': 'hook.4646' },
    });
    expect(r.status).toBe(413);
    expect(existsSync(big)).toBe(true);
    rmSync(big);
  });

  it('answers a payload that maps to nothing like the shim does, storing nothing', async () => {
    const before = (await events()).length;
    for (const body of ['not json', Buffer.from([0xff, 0xfe, 0x00, 0x01]), '', '[1,2]']) {
      const r = await hook('gemini-cli', body);
      expect(r.status).toBe(200);
      // Gemini CLI parses a hook's stdout as JSON and nothing else.
      expect(printed(r.text)).toBe('{}\n');
    }
    expect(await events()).toHaveLength(before);
  });

  it('stores nothing for a paused project, and prints no context', async () => {
    writePauseState(c.home, { projects: { [namespace]: { at: new Date().toISOString() } } });
    try {
      const before = (await events()).length;
      const r = await hook('claude-code', {
        session_id: 's',
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'how does the webhook service deploy?',
      });
      expect(printed(r.text)).toBe('');
      expect(await events()).toHaveLength(before);
    } finally {
      writePauseState(c.home, {});
    }
  });

  it('replays the hooks’ spool after a hook it answered', async () => {
    const spooled = makeEvent({
      namespace,
      kind: 'note',
      body: { type: 'text', content: 'spooled while down' },
    });
    spoolEvent(c.home, spooled);
    await hook('claude-code', { session_id: 's', cwd: project, hook_event_name: 'SubagentStop' });
    for (let i = 0; i < 200; i++) {
      if ((await send(c.port, 'GET', `/v1/events/${spooled.event_id}`)).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the spooled event was not replayed');
  });

  it.each([
    ['a cross-origin page', { Origin: 'https://evil.example' }, 403],
    ['a DNS-rebinding host', { Host: 'evil.example:1' }, 403],
    ['a form post (text/plain)', { 'Content-Type': 'text/plain' }, 415],
    ['a cross-site fetch', { 'Sec-Fetch-Site': 'cross-site' }, 403],
  ])('refuses %s and stores nothing', async (_what, headers, status) => {
    const before = (await events()).length;
    const r = await hook(
      'claude-code',
      {
        session_id: 's',
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'forged memory',
      },
      { headers: headers as Record<string, string> },
    );
    expect(r.status).toBe(status);
    expect(printed(r.text)).toBeUndefined();
    expect(await events()).toHaveLength(before);
  });

  it('says what is wrong with a request no hook sends', async () => {
    const legacy = await hook('kiro-ide', {});
    expect(legacy.status).toBe(404);
    expect(legacy.json.error).toMatch(/no hook script takes a payload/);
    expect((await hook('nonsense', {})).status).toBe(404);
    const noCwd = await send(c.port, 'POST', '/v1/hooks/claude-code', { body: '{}' });
    expect(noCwd.status).toBe(400);
    expect(noCwd.json.error).toMatch(/x-kiro-learn-cwd/);
    const big = await hook('claude-code', 'x'.repeat(3 * 1024 * 1024));
    expect(big.status).toBe(413);
    expect(printed(big.text)).toBeUndefined();
  });

  it('reads a working directory with non-ASCII characters', async () => {
    const dir = join(project, 'café ☕');
    mkdirSync(dir, { recursive: true });
    const r = await send(c.port, 'POST', '/v1/hooks/kiro', {
      body: JSON.stringify({ hook_event_name: 'stop', assistant_response: 'done in the café' }),
      headers: { 'x-kiro-learn-cwd': Buffer.from(dir, 'utf8').toString('latin1') },
    });
    expect(r.status).toBe(200);
    expect((await events())[0]).toMatchObject({ kind: 'session_summary' });
  });
});

describe('POST /v1/hooks/:surface when the event cannot be stored', () => {
  it('answers an error (the launcher then runs the shim, which spools), never the mark', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kl-hook-failing-'));
    const real = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
    // The database refuses every write, as one restarting or out of connections does.
    const storage = new Proxy(real, {
      get(target, key) {
        if (key === 'putEvent') {
          return async () => {
            throw new StorageError('unavailable', 'the database is restarting');
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const settings = normalizeSettings({ port: 0, semantic: { enabled: false } }, home);
    const collector = createCollector({ storage, settings });
    const { port } = await collector.listen();
    try {
      const r = await hook(
        'claude-code',
        { session_id: 's', cwd: project, hook_event_name: 'Stop', last_assistant_message: 'done' },
        { port },
      );
      expect(r.status).toBe(503);
      expect(printed(r.text)).toBeUndefined();
    } finally {
      await collector.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('POST /v1/hooks/:surface off loopback', () => {
  it('is refused: the mapping reads the hook’s own disk', async () => {
    const token = 'a-token-of-a-collector-bound-off-loopback-0123';
    const server = await startCollector({ host: '0.0.0.0', token, semantic: { enabled: false } });
    try {
      const r = await hook(
        'claude-code',
        { session_id: 's', cwd: project, hook_event_name: 'Stop' },
        { port: server.port, headers: { Authorization: `Bearer ${token}` } },
      );
      expect(r.status).toBe(403);
      expect(r.json.error).toMatch(/loopback/);
    } finally {
      await server.close();
    }
  });
});
