import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Event, MemoryRecord } from '@kiro-learn/schema';
import { newRecord } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, kiroLearn, makeWorld, repoRoot, type World } from './harness.js';

// Every agent's recorded payloads, replayed through the hooks `kiro-learn init --surface
// all` installed, as each agent runs them: the command from the agent's own
// configuration file (through `sh -c`, in the project, the payload on stdin), Cline's and
// Augment's hook files run directly, OpenCode's plugin loaded and called. Each agent's
// events reach the collector as its golden files say, memory comes back in the shape that
// agent reads, and its failed commands become error memory.

const SHIMS = join(repoRoot, 'packages/shims/test');
const SAMPLE = '/home/dev/src/payments-api';

let world: World;
let namespace: string;

const text = (path: string) => readFileSync(path, 'utf8');
const json = (path: string) => JSON.parse(text(path));

/** A fixture moved into this test's project. */
function payload(dir: string, name: string): Record<string, unknown> {
  return JSON.parse(
    text(join(SHIMS, 'fixtures/hook-payloads', dir, `${name}.json`)).replaceAll(
      SAMPLE,
      world.project,
    ),
  );
}

/** The event its golden file says a fixture becomes (body and kind), or undefined for a skip. */
function golden(dir: string, name: string): { kind: string; body: unknown } | undefined {
  const value = JSON.parse(
    text(join(SHIMS, 'golden', dir, `${name}.json`)).replaceAll(SAMPLE, world.project),
  ) as { event?: Event };
  return value.event ? { kind: value.event.kind, body: value.event.body } : undefined;
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a hook as agents with hook commands do: `sh -c`, in the project, payload on stdin. */
function viaShell(command: string, input: unknown): Ran {
  return spawnSync('/bin/sh', ['-c', command], {
    cwd: world.project,
    env: world.env,
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** Runs a hook file as Cline and Augment do: the file itself, payload on stdin. */
function viaFile(file: string, input: unknown): Ran {
  return spawnSync(file, [], {
    cwd: world.project,
    env: world.env,
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/**
 * `get`, once more when the socket it reused was just closed by the collector's keep-alive
 * timeout (a race of idle connections, not an answer).
 */
async function read<T>(path: string): Promise<T> {
  try {
    return await get<T>(world, path);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return await get<T>(world, path);
  }
}

async function events(surface: string): Promise<Event[]> {
  const { items } = await read<{ items: Event[] }>(
    `/v1/events?namespace=${encodeURIComponent(namespace)}&limit=500`,
  );
  return items.filter((event) => event.source.surface === surface);
}

const shape = (event: { kind: string; body: unknown }) => JSON.stringify([event.kind, event.body]);

/** Every golden event of these fixtures is stored, and nothing else is, for this surface. */
async function expectStoredAsGolden(surface: string, dir: string, names: readonly string[]) {
  const expected = new Set(
    names.map((name) => golden(dir, name)).flatMap((event) => (event ? [shape(event)] : [])),
  );
  const stored = new Set((await events(surface)).map(shape));
  expect(stored).toEqual(expected);
}

const CONTEXT = /^## Prior observations from kiro-learn\n/;

beforeAll(async () => {
  world = await makeWorld({ KIRO_LEARN_EXTRACTOR: 'builtin' });
  namespace = projectIdentity(world.project, { env: world.env }).namespace;
  // init runs in the project (`kiroLearn` would run it where the test runs).
  const inProject = spawnSync(
    process.execPath,
    [join(repoRoot, 'apps/collector/dist/cli.js'), 'init', '--surface', 'all', '--yes'],
    { cwd: world.project, env: world.env, encoding: 'utf8', timeout: 60_000 },
  );
  expect(inProject.status, inProject.stderr).toBe(0);
  expect(kiroLearn(world, 'start').code).toBe(0);
  // Memory for the prompts and session starts to bring back.
  const now = new Date().toISOString();
  for (const [title, summary, type] of [
    [
      'Stripe webhooks need the raw request body',
      'constructEvent verifies the signature over the raw body; express.json() before it breaks every stripe webhook.',
      'discovery',
    ],
    [
      'Users table moved to uuid primary keys',
      'Migration 0007 casts users.id with USING id::uuid; next: backfill the audit log.',
      'session_summary',
    ],
    [
      'Payments rate limit is keyed on the API key',
      'express-rate-limit on POST /payments uses the API key header as its key.',
      'decision',
    ],
  ] as const) {
    const saved = await fetch(`${world.baseUrl}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        newRecord({
          namespace,
          strategy: 'builtin',
          title,
          summary,
          observation_type: type,
          created_at: now,
        }),
      ),
    });
    expect(saved.status).toBe(200);
  }
}, 120_000);
afterAll(() => world?.cleanup());

describe('every agent through its installed hooks', () => {
  it('lists twelve surfaces in a dry run', () => {
    const fresh = join(world.project, '..', 'fresh-project');
    spawnSync('git', ['init', '-q', fresh]);
    const dry = spawnSync(
      process.execPath,
      [join(repoRoot, 'apps/collector/dist/cli.js'), 'init', '--surface', 'all', '--dry-run'],
      { cwd: fresh, env: world.env, encoding: 'utf8' },
    );
    expect(dry.status).toBe(0);
    for (const file of [
      '.kiro/hooks/kiro-learn.json',
      '.claude/settings.local.json',
      '.codex/hooks.json',
      '.gemini/settings.json',
      '.cursor/hooks.json',
      '.github/hooks/kiro-learn.json',
      '.clinerules/hooks/TaskStart',
      '.opencode/plugins/kiro-learn.js',
      '.augment/settings.local.json',
      '.windsurf/hooks.json',
    ])
      expect(dry.stdout).toContain(file);
  });

  it.each([
    // [surface, fixture dir, fixtures in turn order, the context-bearing fixture, how to read its answer]
    [
      'claude-code',
      'claude-code',
      [
        'SessionStart',
        'UserPromptSubmit',
        'PostToolUse',
        'PostToolUseFailure',
        'Stop',
        'SubagentStop',
        'StopFailure',
        'PreCompact',
        'SessionEnd',
      ],
      'SessionStart',
      (out: string) => out,
    ],
    [
      'codex',
      'codex',
      [
        'SessionStart',
        'UserPromptSubmit',
        'PostToolUse-Bash',
        'PostToolUse-apply_patch',
        'PostToolUse-own-mcp',
        'Stop',
        'Stop-null-message',
      ],
      'SessionStart',
      (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext,
    ],
    [
      'gemini-cli',
      'gemini-cli',
      [
        'SessionStart',
        'BeforeAgent',
        'AfterTool',
        'AfterTool-failed',
        'AfterTool-own-mcp',
        'AfterAgent',
        'PreCompress',
        'SessionEnd',
      ],
      'SessionStart',
      (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext,
    ],
    [
      'kiro-cli',
      'kiro-cli',
      [
        'agentSpawn',
        'userPromptSubmit',
        'postToolUse-fs_read',
        'postToolUse-execute_bash',
        'postToolUse-fs_write',
        'stop',
        'stop-empty',
      ],
      'agentSpawn',
      (out: string) => out,
    ],
    [
      'kiro-ide',
      'kiro-v1-hooks',
      [
        'SessionStart',
        'UserPromptSubmit-empty-prompt',
        'UserPromptSubmit',
        'PostToolUse',
        'PostToolUse-ide-string-response',
        'PostToolUse-ide-empty-subagent',
        'Stop',
      ],
      'SessionStart',
      (out: string) => out,
    ],
    [
      'cursor',
      'cursor',
      [
        'sessionStart',
        'beforeSubmitPrompt',
        'postToolUse-Read',
        'postToolUse-Grep',
        'postToolUse-Shell-failed',
        'postToolUseFailure-Shell',
        'postToolUse-Shell',
        'postToolUse-own-mcp',
        'afterShellExecution',
        'afterFileEdit',
        'afterMCPExecution',
        'afterMCPExecution-own',
        'afterAgentResponse',
        'stop',
        'preCompact',
        'stop-error',
        'sessionEnd',
      ],
      'sessionStart',
      (out: string) => JSON.parse(out).additional_context,
    ],
    [
      'copilot-cli',
      'copilot-cli',
      [
        'SessionStart',
        'UserPromptSubmit',
        'PostToolUse-view',
        'PostToolUseFailure',
        'PostToolUse-bash',
        'Stop',
        'PreCompact',
        'ErrorOccurred',
        'SessionEnd',
      ],
      'SessionStart',
      (out: string) => JSON.parse(out).additionalContext,
    ],
    [
      'vscode',
      'vscode',
      [
        'SessionStart',
        'UserPromptSubmit',
        'PostToolUse-editFiles',
        'PostToolUse-runInTerminal',
        'Stop',
        'PreCompact',
      ],
      'SessionStart',
      (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext,
    ],
    [
      'cline',
      'cline',
      [
        'TaskStart',
        'UserPromptSubmit',
        'PostToolUse-execute_command',
        'PostToolUse-replace_in_file',
        'PostToolUse-own-mcp',
        'TaskComplete',
        'PreCompact',
        'TaskResume',
        'TaskCancel',
      ],
      'TaskStart',
      (out: string) => JSON.parse(out).contextModification,
    ],
    [
      'augment',
      'augment',
      [
        'SessionStart',
        'PostToolUse-view',
        'PostToolUse-error',
        'PostToolUse-launch-process',
        'Stop',
        'SessionEnd',
      ],
      'SessionStart',
      (out: string) => JSON.parse(out).hookSpecificOutput.additionalContext,
    ],
    [
      'windsurf',
      'windsurf',
      [
        'pre_user_prompt',
        'post_read_code',
        'post_write_code',
        'post_run_command',
        'post_mcp_tool_use',
        'post_mcp_tool_use-own',
        'post_cascade_response',
      ],
      undefined,
      undefined,
    ],
  ] as const)(
    '%s: stores what its golden files say, and reads memory in its own shape',
    async (surface, dir, names, contextFixture, readContext) => {
      const p = world.project;
      /** The command of the first group of `hook` in a Claude-shaped settings file. */
      const grouped = (file: string, hook: string): string =>
        json(join(p, file)).hooks[hook][0].hooks[0].command;
      /** The command of the first entry of `hook` in a hooks file of flat entries. */
      const flat = (file: string, hook: string): string =>
        json(join(p, file)).hooks[hook][0].command;
      const run = (input: Record<string, unknown>, name: string): Ran => {
        switch (surface) {
          case 'claude-code':
            return viaShell(grouped('.claude/settings.local.json', 'Stop'), input);
          case 'codex':
            return viaShell(grouped('.codex/hooks.json', 'Stop'), input);
          case 'gemini-cli':
            return viaShell(grouped('.gemini/settings.json', 'AfterTool'), input);
          case 'kiro-cli':
            return viaShell(flat('.kiro/agents/kiro-learn.json', 'stop'), input);
          case 'kiro-ide':
            return viaShell(
              json(join(p, '.kiro/hooks/kiro-learn.json')).hooks[0].action.command,
              input,
            );
          case 'cursor':
            return viaShell(flat('.cursor/hooks.json', 'stop'), input);
          case 'copilot-cli':
          case 'vscode':
            return viaShell(flat('.github/hooks/kiro-learn.json', 'Stop'), input);
          case 'cline':
            return viaFile(join(p, '.clinerules/hooks', String(input['hookName'])), input);
          case 'augment':
            return viaFile(grouped('.augment/settings.local.json', 'Stop'), input);
          case 'windsurf':
            return viaShell(flat('.windsurf/hooks.json', 'post_cascade_response'), input);
        }
        throw new Error(`no runner for ${name}`);
      };
      for (const name of names) {
        const ran = run(payload(dir, name), name);
        expect(ran.status, `${surface} ${name}: ${ran.stderr}`).toBe(0);
        expect(ran.stderr, `${surface} ${name}`).toBe('');
        if (name === contextFixture && readContext) {
          expect(readContext(ran.stdout), `${surface} ${name}`).toMatch(CONTEXT);
        }
      }
      await expectStoredAsGolden(surface, dir, names);
    },
  );

  it('opencode: its plugin records the turn and adds memory to the prompt', async () => {
    const saved = { ...process.env };
    // The plugin's hook runs with OpenCode's environment: here, this world's.
    Object.assign(process.env, {
      KIRO_LEARN_HOME: world.env['KIRO_LEARN_HOME'],
      KIRO_LEARN_PORT: world.env['KIRO_LEARN_PORT'],
      KIRO_LEARN_ACTOR: world.env['KIRO_LEARN_ACTOR'],
      HOME: world.env['HOME'],
    });
    try {
      const plugin = join(world.project, '.opencode/plugins/kiro-learn.js');
      const { KiroLearn } = (await import(pathToFileURL(plugin).href)) as {
        KiroLearn: (ctx: {
          directory: string;
        }) => Promise<Record<string, (...args: unknown[]) => Promise<void>>>;
      };
      const hooks = await KiroLearn({ directory: world.project });
      const sessionID = 'ses_7c1e4b9a2f0d3e5c';
      await hooks['event']!({
        event: { type: 'session.created', properties: { info: { id: sessionID } } },
      });
      const parts = [
        {
          id: 'prt_1',
          sessionID,
          messageID: 'msg_1',
          type: 'text',
          text: "why does the stripe webhook return 400 since yesterday's deploy?",
        },
      ];
      await hooks['chat.message']!({ sessionID, messageID: 'msg_1' }, { message: {}, parts });
      expect(parts).toHaveLength(2);
      expect(parts[1]).toMatchObject({
        type: 'text',
        synthetic: true,
        sessionID,
        messageID: 'msg_1',
      });
      expect((parts[1] as { text: string }).text).toMatch(CONTEXT);
      const failed = payload('opencode', 'tool.execute.after-bash-failed');
      await hooks['tool.execute.before']!(
        { tool: 'bash', sessionID, callID: 'call_1' },
        { args: failed['tool_input'] },
      );
      await hooks['tool.execute.after']!(
        { tool: 'bash', sessionID, callID: 'call_1' },
        failed['tool_response'],
      );
      await hooks['event']!({ event: { type: 'session.idle', properties: { sessionID } } });
      // The plugin does not wait for tool and turn-end hooks: the agent never waits on them.
      let stored: Event[] = [];
      for (let i = 0; i < 100 && stored.length < 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        stored = await events('opencode');
      }
      expect(new Set(stored.map(shape))).toEqual(
        new Set(
          ['session.created', 'chat.message', 'tool.execute.after-bash-failed', 'session.idle'].map(
            (name) => shape(golden('opencode', name)!),
          ),
        ),
      );
    } finally {
      process.env = saved;
    }
  });

  it('one turn seen by both Cursor and Claude Code hooks is stored once, as Cursor’s', async () => {
    const p = world.project;
    const input = {
      ...payload('cursor', 'postToolUse-Shell'),
      tool_use_id: 'toolu_twice',
      tool_output: '{"exitCode":0,"stdout":"ran twice"}',
    };
    const before = (await events('cursor')).length;
    expect(
      viaShell(json(join(p, '.cursor/hooks.json')).hooks.postToolUse[0].command, input).status,
    ).toBe(0);
    // Cursor with "third-party configs" on runs Claude Code's hooks too, with the same payload.
    expect(
      viaShell(
        json(join(p, '.claude/settings.local.json')).hooks.PostToolUse[0].hooks[0].command,
        input,
      ).status,
    ).toBe(0);
    expect((await events('cursor')).length).toBe(before + 1);
    expect(
      (await events('claude-code')).some((event) =>
        JSON.stringify(event.body).includes('ran twice'),
      ),
    ).toBe(false);
  });

  it("remembers every agent's failed commands as error memory", async () => {
    const failing = async () =>
      (
        await get<{ items: Event[] }>(
          world,
          `/v1/events?namespace=${encodeURIComponent(namespace)}&limit=500`,
        )
      ).items.filter((event) => {
        if (event.kind !== 'tool_use' || event.body.type !== 'json') return false;
        const response = (event.body.data as { tool_response?: { success?: unknown } })
          .tool_response;
        return response !== null && typeof response === 'object' && response.success === false;
      });
    const surfaces = new Set((await failing()).map((event) => event.source.surface));
    // Every agent whose hooks report a failure (Windsurf reports commands without outcome).
    expect(surfaces).toEqual(
      new Set([
        'claude-code',
        'gemini-cli',
        'kiro-cli',
        'cursor',
        'copilot-cli',
        'cline',
        'opencode',
        'augment',
      ]),
    );
    const deadline = Date.now() + 120_000;
    let uncited: Event[] = [];
    do {
      const { items } = await read<{ items: MemoryRecord[] }>(
        `/v1/memories?namespace=${encodeURIComponent(namespace)}&type=error&limit=200`,
      );
      const cited = new Set(items.flatMap((record) => record.source_event_ids));
      uncited = (await failing()).filter((event) => !cited.has(event.event_id));
      if (uncited.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    } while (Date.now() < deadline);
    expect(
      uncited.map(
        (event) => `${event.source.surface}: ${JSON.stringify(event.body).slice(0, 120)}`,
      ),
    ).toEqual([]);
  }, 180_000);

  it('git-ignores the personal settings files it wrote', () => {
    expect(existsSync(join(world.project, '.gitignore'))).toBe(true);
    const ignored = spawnSync(
      'git',
      ['check-ignore', '.claude/settings.local.json', '.augment/settings.local.json'],
      {
        cwd: world.project,
        encoding: 'utf8',
      },
    );
    expect(ignored.stdout.trim().split('\n')).toEqual([
      '.claude/settings.local.json',
      '.augment/settings.local.json',
    ]);
  });
});
