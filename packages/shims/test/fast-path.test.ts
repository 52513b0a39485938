// The conformance suite of the hook's two paths. Every fixture payload (this package's and,
// where present, the shared set's) goes through the installed hook command as the agent
// runs it (`sh -c`, stdin, cwd, env), once on the fast path (sh + bash or curl to the
// collector's POST /v1/hooks/:surface, which maps it with the same agent module) and once on
// the fallback (the fast path reaches another program on the collector's port, so the Node
// shim runs on the same bytes). Each path has a real collector of its own
// (apps/collector/dist/cli.js, seeded with the same memory); what they store and what the
// hook prints must be the same. The whole suite runs once per transport the machine has
// (bash, as init prefers it, then curl).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { freePort, outputOf } from '@kiro-learn/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';
import type { ShimSurface } from '../src/hook.js';
import { INSTALL_SURFACES } from '../src/init/detect.js';
import { findBash, findCurl } from '../src/init/fast-path.js';
import { hookCommand, hookLauncher } from '../src/init/launcher.js';
import { applyPlan, planInit } from '../src/init/plan.js';
import { writePauseState } from '../src/paused.js';
import { spoolEvent, spoolStatus } from '../src/spool.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const cli = join(repo, 'apps', 'collector', 'dist', 'cli.js');
const curl = findCurl(process.env);
const bash = findBash(process.env);
/**
 * The fast path's ways to the collector this machine has, each run through the whole suite:
 * bash (init's first choice) and curl.
 */
const TRANSPORTS = [...(bash ? ['bash' as const] : []), ...(curl ? ['curl' as const] : [])];
type Transport = (typeof TRANSPORTS)[number];
/** The transport the launchers installed from now on use. */
let transport: Transport | undefined = TRANSPORTS[0];
const base = realpathSync(mkdtempSync(join(tmpdir(), 'kl-paths-')));
const home = join(base, 'home');
const project = join(home, 'src', 'payments-api');

/**
 * Which hook script and command-line words run each fixture folder: what `init` installs
 * for that agent. A new agent's fixtures need a line here (the suite fails without one).
 */
const FOLDERS: Record<string, { script: ShimSurface; args: string[] }> = {
  'kiro-cli': { script: 'kiro', args: [] },
  'kiro-v1-hooks': { script: 'kiro', args: ['kiro-ide'] },
  'claude-code': { script: 'claude-code', args: [] },
  codex: { script: 'codex', args: [] },
  'gemini-cli': { script: 'gemini-cli', args: [] },
  cursor: { script: 'cursor', args: [] },
  'copilot-cli': { script: 'copilot', args: [] },
  vscode: { script: 'copilot', args: [] },
  cline: { script: 'cline', args: [] },
  opencode: { script: 'opencode', args: [] },
  augment: { script: 'augment', args: [] },
  windsurf: { script: 'windsurf', args: [] },
};
/** Folders without JSON payloads on stdin (legacy Kiro IDE passes `USER_PROMPT`). */
const NOT_ON_STDIN = new Set(['kiro-ide-legacy']);

const fixtureRoots = [
  join(import.meta.dirname, 'fixtures', 'hook-payloads'),
  // The team's shared set, where this checkout has it.
  ...['/work/shared/fixtures/hook-payloads'].filter((dir) => existsSync(dir)),
];

/** One collector and the data dir its hooks use. */
interface Side {
  name: 'fast path' | 'fallback';
  /** The hooks' data dir (scripts, launcher, sessions, spool). */
  hooks: string;
  /** The collector's own data dir. */
  data: string;
  port: number;
  child?: ChildProcess;
}

let fast: Side;
let fallback: Side;
/** Another program on the fallback side's collector port as its PID file names it. */
let impostor: Server;
/** Requests the impostor answered: each is a fallback the launcher took. */
let impostorHits = 0;

const actor = () => projectIdentity(project, { home }).actor;
const namespace = () => projectIdentity(project, { home }).namespace;

function collectorEnv(data: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: home,
    KIRO_LEARN_HOME: data,
    KIRO_LEARN_PORT: String(port),
    // What is stored and printed must not depend on when extraction ran: no extraction
    // (the agent command does not exist) and lexical retrieval only.
    KIRO_LEARN_EXTRACTOR: 'acp',
    KIRO_LEARN_COMPRESSOR_COMMAND: join(base, 'no-such-agent'),
    KIRO_LEARN_SEMANTIC_ENABLED: 'false',
  };
}

async function startCollector(side: Side): Promise<void> {
  side.child = spawn(process.execPath, [cli, 'start', '--foreground'], {
    env: collectorEnv(side.data, side.port),
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    const up = await fetch(`http://127.0.0.1:${side.port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the ${side.name} collector did not come up`);
}

async function stopCollector(side: Side | undefined): Promise<void> {
  const child = side?.child;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `kiro-learn init` for every agent, into the side's hooks data dir. */
function install(hooks: string): void {
  const plan = planInit({
    cwd: project,
    surfaces: [...INSTALL_SURFACES],
    env: { PATH: process.env['PATH'], HOME: home, KIRO_LEARN_HOME: hooks },
    node: process.execPath,
    curl: transport === 'curl' && curl ? curl : false,
    bash: transport === 'bash' && bash ? bash : false,
    kiroCliMajor: 2,
  });
  applyPlan(plan);
}

/** Both sides' launchers, as init writes them for `to`. */
function useTransport(to: Transport): void {
  transport = to;
  for (const side of [fast, fallback]) install(side.hooks);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A payload the hook reads from a pipe that another process (`cat`) fills as fast as the
 * kernel takes it, as an agent writes it: the test's own process, busy on a loaded
 * machine, would feed a large payload slower than any agent does.
 */
interface FromFile {
  file: string;
}

/** The installed hook command, run as the agent runs it. */
function runHook(
  side: Side,
  script: ShimSurface,
  args: readonly string[],
  stdin: Buffer | string | FromFile | undefined,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  const writer =
    stdin !== undefined && typeof stdin === 'object' && 'file' in stdin
      ? spawn('cat', [stdin.file], { stdio: ['ignore', 'pipe', 'ignore'] })
      : undefined;
  const child = spawn('/bin/sh', ['-c', hookCommand(side.hooks, script, args, false)], {
    cwd: project,
    env: {
      PATH: process.env['PATH'],
      HOME: home,
      KIRO_LEARN_HOME: side.hooks,
      KIRO_LEARN_AUTOSTART: '0',
      ...extraEnv,
    },
    stdio: [writer ? writer.stdout : 'pipe', 'pipe', 'pipe'],
  });
  if (writer) writer.stdout.destroy();
  else if (child.stdin) {
    // A hook that exits before reading its stdin (no scripts installed) closes the pipe:
    // the agent's write fails, which is no concern of the hook's.
    child.stdin.on('error', () => {});
    if (stdin !== undefined) child.stdin.end(stdin as Buffer | string);
  }
  return outputOf(child);
}

interface StoredEvent {
  event_id: string;
  session_id: string;
  kind: string;
  valid_time: string;
  [key: string]: unknown;
}

async function stored(side: Side): Promise<StoredEvent[]> {
  const url = `http://127.0.0.1:${side.port}/v1/events?namespace=${encodeURIComponent(namespace())}&limit=500`;
  // Once more on a socket error: a kept-alive connection the collector closed just as this
  // request went out (its keep-alive timeout; a wider window on a loaded machine).
  const r = await fetch(url).catch(() => fetch(url));
  return ((await r.json()) as { items: StoredEvent[] }).items;
}

/**
 * An event without what differs by nature between two runs: its id and time, and the
 * session id kiro-learn makes for agents that send none (a fresh one per data dir).
 */
function comparable(event: StoredEvent, fileSession: boolean): unknown {
  const { event_id: _id, valid_time: _time, ...rest } = event;
  return fileSession ? { ...rest, session_id: '(per-project session file)' } : rest;
}

/**
 * What each side stored, as the bytes the event API gives back (key order included), less
 * what differs by nature: the two paths must store the same bytes.
 */
function storedBytes(events: StoredEvent[], fileSession: boolean): string[] {
  return events.map((event) => JSON.stringify(comparable(event, fileSession)));
}

/** A fixture's paths moved into this test's home. */
function localize(text: string): string {
  return text
    .replaceAll('/home/dev/src/payments-api', project)
    .replaceAll('/home/dev', home)
    .replaceAll('/Users/dev', home);
}

/** Runs one payload through both paths; returns both results and the events each stored. */
async function bothPaths(
  script: ShimSurface,
  args: readonly string[],
  stdin: Buffer | string | FromFile,
  extraEnv: NodeJS.ProcessEnv = {},
  settle = 0,
) {
  const before = await Promise.all([stored(fast), stored(fallback)]);
  const hits = impostorHits;
  const ran = await Promise.all([
    runHook(fast, script, args, stdin, extraEnv),
    runHook(fallback, script, args, stdin, extraEnv),
  ]);
  // The fallback side tried the fast path first (and then ran the shim).
  expect(impostorHits).toBe(hits + 1);
  let after = await Promise.all([stored(fast), stored(fallback)]);
  // `settle`: events each side must have gained. A shim whose request outlived its 2 s
  // timeout on a loaded machine spooled the event and exited, while the collector went on
  // to store what it had received: wait for that, not for a clock. A hook that said it
  // recorded nothing sent nothing to wait for: the assertions that follow say why at once.
  const sent = ran.map((r) => !/nothing recorded/.test(r.stderr));
  for (let attempt = 0; attempt < 600; attempt++) {
    if (after.every((list, i) => !sent[i] || list.length - before[i]!.length >= settle)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await Promise.all([stored(fast), stored(fallback)]);
  }
  const added = after.map((list, i) => list.slice(0, list.length - before[i]!.length));
  // No copy of a payload stays behind on either path.
  expect(readdirSync(join(fast.hooks, 'tmp'))).toEqual([]);
  expect(readdirSync(join(fallback.hooks, 'tmp'))).toEqual([]);
  return { fast: ran[0]!, fallback: ran[1]!, stored: added as [StoredEvent[], StoredEvent[]] };
}

beforeAll(async () => {
  if (!existsSync(cli)) {
    execFileSync(
      join(repo, 'node_modules', '.bin', 'turbo'),
      ['run', 'build', '--filter=kiro-learn...', '--output-logs=errors-only'],
      { cwd: repo, stdio: 'ignore' },
    );
  }
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{}');
  fast = { name: 'fast path', hooks: join(base, 'fast'), data: join(base, 'fast'), port: 0 };
  fallback = {
    name: 'fallback',
    hooks: join(base, 'fallback-hooks'),
    data: join(base, 'fallback'),
    port: 0,
  };
  [fast.port, fallback.port] = await Promise.all([freePort(), freePort()]);
  install(fast.hooks);
  install(fallback.hooks);
  for (const side of [fast, fallback]) {
    // The Node shim finds the side's collector through settings.json, as a user's does.
    writeFileSync(join(side.hooks, 'settings.json'), JSON.stringify({ port: side.port }));
  }
  // The fallback side's hooks find a "collector" (its PID file) where another program
  // answers 200 without the collector's mark: the launcher must not trust that answer, so
  // the Node shim runs on the same bytes and posts to the real collector.
  impostor = createHttpServer((req, res) => {
    impostorHits++;
    req.resume();
    req.on('end', () => res.end('hello from another program'));
  });
  await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
  const impostorPort = (impostor.address() as { port: number }).port;
  writeFileSync(
    join(fallback.hooks, 'collector.pid'),
    `${JSON.stringify({ pid: 1, host: '127.0.0.1', port: impostorPort, hooks: true })}\n`,
  );
  await Promise.all([startCollector(fast), startCollector(fallback)]);
  // The same memory on both sides, so that prompts and session starts get the same context.
  const record = {
    record_id: 'mr_01JD8X6Q9Z0000000000000001',
    namespace: namespace(),
    strategy: 'builtin',
    title: 'Stripe webhooks need the raw request body',
    summary: 'constructEvent verifies the signature over the raw body; express.json() breaks it.',
    facts: ['Use express.raw({ type: "application/json" }) on the webhook route'],
    concepts: ['stripe', 'webhook'],
    files_touched: ['src/webhooks/stripe.ts'],
    observation_type: 'discovery',
    source_event_ids: [newEventId()],
    created_at: '2026-11-20T09:30:00.000Z',
  };
  for (const side of [fast, fallback]) {
    const saved = await fetch(`http://127.0.0.1:${side.port}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    expect(saved.status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await Promise.all([stopCollector(fast), stopCollector(fallback)]);
  await new Promise((resolve) => impostor?.close(resolve));
  rmSync(base, { recursive: true, force: true });
});

describe.each(TRANSPORTS)('the fast path through %s', (to) => {
  beforeAll(() => useTransport(to));

  describe('every fixture, fast path and fallback', () => {
    const seen = new Set<string>();
    const cases = fixtureRoots.flatMap((root) =>
      readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !NOT_ON_STDIN.has(entry.name))
        .flatMap((dir) =>
          readdirSync(join(root, dir.name))
            .filter(
              (file) =>
                file.endsWith('.json') &&
                !file.includes('example') &&
                !file.startsWith('claude-hooks'),
            )
            .sort()
            .map((file) => ({
              label: `${root === fixtureRoots[0] ? '' : 'shared: '}${dir.name}/${file}`,
              folder: dir.name,
              file: join(root, dir.name, file),
            }))
            // The shared set's copies of this package's fixtures run once.
            .filter(({ folder, file }) => {
              const key = `${folder}\n${readFileSync(file, 'utf8').trim()}`;
              return !seen.has(key) && seen.add(key);
            }),
        ),
    );

    it('knows which hook script runs each folder', () => {
      const unknown = [...new Set(cases.map((c) => c.folder))].filter((f) => !FOLDERS[f]);
      expect(unknown, 'add the folder to FOLDERS: the hook script and words init installs').toEqual(
        [],
      );
    });

    it.each(cases)('$label', async ({ folder, file }) => {
      const { script, args } = FOLDERS[folder]!;
      const payload = localize(readFileSync(file, 'utf8'));
      const ran = await bothPaths(script, args, payload);
      expect(ran.fast.code).toBe(0);
      expect(ran.fallback.code).toBe(0);
      // The fast path prints exactly what the shim prints.
      expect(ran.fast.stdout).toBe(ran.fallback.stdout);
      const fileSession = !(JSON.parse(payload) as Record<string, unknown>)['session_id'];
      expect(storedBytes(ran.stored[0], fileSession)).toEqual(
        storedBytes(ran.stored[1], fileSession),
      );
      // kiro-learn's own MCP tools are memory the agent was just shown: never stored.
      if (/own/.test(file)) expect(ran.stored).toEqual([[], []]);
      // The fast path started no Node: nothing on its stderr (the shim would say why it
      // took over); the fallback side did take over, with the same bytes.
      expect(ran.fast.stderr).toBe('');
    });
  });

  describe('the guarantees, on both paths', () => {
    it('scrubs secrets and <private> spans before anything is stored', async () => {
      const ran = await bothPaths(
        'claude-code',
        [],
        JSON.stringify({
          session_id: 'sess-scrub',
          cwd: project,
          hook_event_name: 'PostToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345' },
          tool_response: 'done <private>the launch code is 0000</private>',
        }),
      );
      for (const events of ran.stored) {
        expect(events).toHaveLength(1);
        const text = JSON.stringify(events[0]);
        expect(text).not.toContain('ghp_0123456789');
        expect(text).not.toContain('launch code');
      }
      expect(storedBytes(ran.stored[0], false)).toEqual(storedBytes(ran.stored[1], false));
    });

    it.each([
      ['claude-code', 'mcp__kiro-learn__search_memory'],
      ['kiro', '@kiro-learn/get_memories'],
    ] as const)('stores no call of kiro-learn’s own MCP tools (%s)', async (script, tool) => {
      const ran = await bothPaths(
        script,
        [],
        JSON.stringify({
          session_id: `sess-own-${script}`,
          cwd: project,
          hook_event_name: script === 'kiro' ? 'postToolUse' : 'PostToolUse',
          tool_name: tool,
          tool_input: { query: 'stripe webhook' },
          tool_response: 'Stripe webhooks need the raw request body',
        }),
      );
      expect(ran.stored).toEqual([[], []]);
      expect([ran.fast.stdout, ran.fallback.stdout]).toEqual(['', '']);
    });

    it('truncates a large field the same way', async () => {
      const ran = await bothPaths(
        'codex',
        [],
        JSON.stringify({
          session_id: 'sess-big',
          cwd: project,
          hook_event_name: 'PostToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'cat big.log' },
          tool_response: 'line of output\n'.repeat(60_000),
        }),
      );
      expect(ran.stored[0]).toHaveLength(1);
      expect(JSON.stringify(ran.stored[0][0]!.body)).toContain('[truncated by kiro-learn]');
      expect(storedBytes(ran.stored[0], false)).toEqual(storedBytes(ran.stored[1], false));
    });

    it('reads the Claude Code transcript when Stop carries no answer', async () => {
      const transcript = join(home, '.claude', 'projects', 'payments', 'sess-transcript.jsonl');
      mkdirSync(join(transcript, '..'), { recursive: true });
      writeFileSync(
        transcript,
        [
          { type: 'user', message: { role: 'user', content: 'fix the webhook' } },
          {
            type: 'assistant',
            message: {
              role: 'assistant',
              content: [{ type: 'text', text: 'Switched to express.raw().' }],
            },
          },
          {
            type: 'assistant',
            isSidechain: true,
            message: { role: 'assistant', content: 'a sub-agent line' },
          },
        ]
          .map((line) => JSON.stringify(line))
          .join('\n'),
      );
      const ran = await bothPaths(
        'claude-code',
        [],
        JSON.stringify({
          session_id: 'sess-transcript',
          transcript_path: transcript,
          cwd: project,
          hook_event_name: 'Stop',
        }),
      );
      for (const events of ran.stored) {
        expect(events[0]).toMatchObject({
          kind: 'session_summary',
          body: {
            type: 'message',
            turns: [{ role: 'assistant', content: 'Switched to express.raw().' }],
          },
        });
      }
      expect(storedBytes(ran.stored[0], false)).toEqual(storedBytes(ran.stored[1], false));
    });

    it('records nothing while paused, in an ignored repository or an excluded directory', async () => {
      const prompt = (n: number) =>
        JSON.stringify({
          session_id: `sess-off-${n}`,
          cwd: project,
          hook_event_name: 'UserPromptSubmit',
          prompt: `why does the stripe webhook fail (${n})?`,
        });
      const sides = [fast, fallback];
      for (const side of sides) {
        writePauseState(side.hooks, { all: { at: new Date().toISOString() } });
      }
      try {
        const ran = await bothPaths('claude-code', [], prompt(1));
        expect(ran.stored).toEqual([[], []]);
        expect([ran.fast.stdout, ran.fallback.stdout]).toEqual(['', '']);
      } finally {
        for (const side of sides) writePauseState(side.hooks, {});
      }
      writeFileSync(join(project, '.kiro-learn-ignore'), '');
      try {
        const ran = await bothPaths(
          'gemini-cli',
          [],
          prompt(2).replace('UserPromptSubmit', 'BeforeAgent'),
        );
        expect(ran.stored).toEqual([[], []]);
        expect([ran.fast.stdout, ran.fallback.stdout]).toEqual(['{}\n', '{}\n']);
      } finally {
        rmSync(join(project, '.kiro-learn-ignore'));
      }
      for (const side of sides) {
        writeFileSync(
          join(side.hooks, 'settings.json'),
          JSON.stringify({ port: side.port, capture: { exclude: ['~/src/*'] } }),
        );
      }
      try {
        const ran = await bothPaths('claude-code', [], prompt(3));
        expect(ran.stored).toEqual([[], []]);
      } finally {
        for (const side of sides) {
          writeFileSync(join(side.hooks, 'settings.json'), JSON.stringify({ port: side.port }));
        }
      }
    });

    it.each([
      ['empty', ''],
      ['binary', Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x22, 0x80, 0x0a])],
      ['not an object', '["UserPromptSubmit"]'],
    ])(
      'exits 0 on %s stdin, prints only the agent’s answer, stores nothing',
      async (_what, stdin) => {
        for (const script of ['claude-code', 'gemini-cli'] as const) {
          const ran = await bothPaths(script, [], stdin);
          expect([ran.fast.code, ran.fallback.code]).toEqual([0, 0]);
          expect(ran.fast.stdout).toBe(script === 'gemini-cli' ? '{}\n' : '');
          expect(ran.fast.stdout).toBe(ran.fallback.stdout);
          expect(ran.stored).toEqual([[], []]);
        }
      },
    );

    it('takes a 5 MB payload like the shim: the prompt stored, cut to size', async () => {
      // Over the shim's 512 KiB cut and the collector's 2 MiB body cap. Not 50 MB: the hook
      // must read all of it within its stdin bound (3 s, the shim's, kept so that a whole
      // hook stays within the agents' hook timeouts), and on a loaded machine (load 25 on
      // 2 cores) the launcher copied only 32–39 MB of a 50 MB payload in that time (curl,
      // which select()s before every chunk; bash's cat too, at load 26): the hook then
      // records nothing, by design. 5 MB leaves a margin of 6× or more there.
      const file = join(base, 'big.json');
      writeFileSync(
        file,
        JSON.stringify({
          // One per transport: the same hook twice within seconds is stored once.
          session_id: `sess-5mb-${transport}`,
          cwd: project,
          hook_event_name: 'UserPromptSubmit',
          prompt: `paste: ${'0123456789'.repeat(500_000)}`,
        }),
      );
      const ran = await bothPaths('claude-code', [], { file }, {}, 1);
      rmSync(file);
      expect([ran.fast.code, ran.fallback.code]).toEqual([0, 0]);
      // Not cut by the stdin bound (the hook then says so, and nothing is stored to wait for).
      expect([ran.fast.stderr, ran.fallback.stderr]).not.toContainEqual(
        expect.stringMatching(/nothing recorded/),
      );
      expect(ran.stored[0]).toHaveLength(1);
      expect(storedBytes(ran.stored[0], false)).toEqual(storedBytes(ran.stored[1], false));
    });

    it('ends when stdin never closes, with what arrived', async () => {
      const payload = JSON.stringify({
        session_id: 'sess-open',
        cwd: project,
        hook_event_name: 'Stop',
        last_assistant_message: 'stdin stayed open after this',
      });
      const open = (side: Side) => {
        const child = spawn('/bin/sh', ['-c', hookCommand(side.hooks, 'claude-code', [], false)], {
          cwd: project,
          env: {
            PATH: process.env['PATH'],
            HOME: home,
            KIRO_LEARN_HOME: side.hooks,
            KIRO_LEARN_AUTOSTART: '0',
          },
        });
        child.stdin.write(payload); // and never end
        let stdout = '';
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
        });
        return new Promise<Ran>((resolve) =>
          child.on('exit', (code) => {
            child.stdin.destroy();
            resolve({ code, stdout, stderr: '' });
          }),
        );
      };
      const before = await Promise.all([stored(fast), stored(fallback)]);
      const ran = await Promise.all([open(fast), open(fallback)]);
      expect(ran.map((r) => r.code)).toEqual([0, 0]);
      const after = await Promise.all([stored(fast), stored(fallback)]);
      expect(after[0]!.length - before[0]!.length).toBe(1);
      expect(comparable(after[0]![0]!, false)).toEqual(comparable(after[1]![0]!, false));
    }, 60_000);

    it('sends hooks whose environment changes what the shim does to the shim', async () => {
      const ran = await runHook(
        fast,
        'claude-code',
        [],
        JSON.stringify({
          session_id: `sess-actor-${to}`,
          cwd: project,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'who am I?',
        }),
        { KIRO_LEARN_ACTOR: 'someone-else' },
      );
      expect(ran.code).toBe(0);
      const other = projectIdentity(project, { home, env: { KIRO_LEARN_ACTOR: 'someone-else' } });
      const r = await fetch(
        `http://127.0.0.1:${fast.port}/v1/events?namespace=${encodeURIComponent(other.namespace)}`,
      );
      const items = ((await r.json()) as { items: Array<{ session_id: string }> }).items;
      expect(items.filter((e) => e.session_id === `sess-actor-${to}`)).toHaveLength(1);
      expect(other.actor).not.toBe(actor());
    });
  });

  describe('when the fast path cannot be taken', () => {
    const prompt = (id: string) =>
      JSON.stringify({
        session_id: id,
        cwd: project,
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: `src/${id}.ts` },
        tool_response: 'ok',
      });

    /** A hooks data dir of its own, whose launcher is `launcher` and PID file `pid`. */
    function sideWith(name: string, pid: object | undefined, launcher?: string): Side {
      const hooks = join(base, name);
      install(hooks);
      writeFileSync(join(hooks, 'settings.json'), JSON.stringify({ port: fast.port }));
      if (pid) writeFileSync(join(hooks, 'collector.pid'), `${JSON.stringify(pid)}\n`);
      if (launcher) writeFileSync(join(hooks, 'bin', 'kiro-learn-hook'), launcher, { mode: 0o755 });
      return { name: 'fallback', hooks, data: fast.data, port: fast.port };
    }

    async function storedOnce(id: string): Promise<void> {
      const events = await stored(fast);
      expect(events.filter((e) => e.session_id === id)).toHaveLength(1);
    }

    it('runs the shim when the PID file names a port nothing listens on', async () => {
      const closed = await freePort();
      const side = sideWith(`stale-pid-${to}`, {
        pid: 1,
        host: '127.0.0.1',
        port: closed,
        hooks: true,
      });
      const ran = await runHook(side, 'claude-code', [], prompt(`sess-stale-${to}`));
      expect(ran.code).toBe(0);
      await storedOnce(`sess-stale-${to}`);
      expect(readdirSync(join(side.hooks, 'tmp'))).toEqual([]);
    });

    it('runs the shim without trying the fast path when the collector takes no hooks (a token, an older release)', async () => {
      const impostorPort = (impostor.address() as { port: number }).port;
      const side = sideWith(`no-hooks-${to}`, { pid: 1, host: '127.0.0.1', port: impostorPort });
      const hits = impostorHits;
      const ran = await runHook(side, 'claude-code', [], prompt(`sess-no-hooks-${to}`));
      expect(ran.code).toBe(0);
      expect(impostorHits).toBe(hits);
      await storedOnce(`sess-no-hooks-${to}`);
    });

    it.each([
      // accepts and never answers
      ['does not answer in time', 'silent', () => createServer(() => {})],
      // A collector stopping: the hook's request may meet a closed socket (SIGPIPE).
      [
        'closes each connection at once',
        'closing',
        () => createServer((socket) => socket.destroy()),
      ],
    ])(
      'runs the shim when the collector’s port %s, and it stores once',
      async (_, name, serve) => {
        const server = serve();
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const port = (server.address() as { port: number }).port;
          const side = sideWith(`${name}-${to}`, { pid: 1, host: '127.0.0.1', port, hooks: true });
          const ran = await runHook(side, 'claude-code', [], prompt(`sess-${name}-${to}`));
          expect(ran.code).toBe(0);
          await storedOnce(`sess-${name}-${to}`);
        } finally {
          server.close();
        }
      },
      30_000,
    );

    // Only bash copies stdin with cat; curl reads it itself.
    if (to === 'bash') {
      it('runs the shim when the cat bash copies stdin with is gone', async () => {
        const side = sideWith(
          'no-cat',
          undefined,
          hookLauncher({
            node: { path: process.execPath, version: process.versions.node },
            bash: bash!,
            cat: join(base, 'no-such-cat'),
          }),
        );
        writeFileSync(
          join(side.hooks, 'collector.pid'),
          `${JSON.stringify({ pid: 1, host: '127.0.0.1', port: fast.port, hooks: true })}\n`,
        );
        const ran = await runHook(side, 'claude-code', [], prompt('sess-no-cat'));
        expect(ran.code).toBe(0);
        await storedOnce('sess-no-cat');
      });
    }

    it(`runs the shim when ${to} is missing`, async () => {
      const missing = join(base, `no-such-${to}`);
      const side = sideWith(
        `no-${to}`,
        undefined,
        hookLauncher({
          node: { path: process.execPath, version: process.versions.node },
          ...(to === 'curl' ? { curl: missing } : { bash: missing }),
        }),
      );
      writeFileSync(
        join(side.hooks, 'collector.pid'),
        `${JSON.stringify({ pid: 1, host: '127.0.0.1', port: fast.port, hooks: true })}\n`,
      );
      const ran = await runHook(side, 'claude-code', [], prompt(`sess-no-${to}`));
      expect(ran.code).toBe(0);
      await storedOnce(`sess-no-${to}`);
    });

    it('keeps no more than 64 MiB of a payload on disk (an agent streaming gigabytes fills no disk)', async () => {
      const closed = await freePort();
      const side = sideWith(`huge-${to}`, { pid: 1, host: '127.0.0.1', port: closed, hooks: true });
      // The hook script the launcher falls back to, here one that says how much it was given.
      const counted = join(side.hooks, 'counted');
      writeFileSync(
        join(side.hooks, 'bin', 'kiro-learn-claude-code.cjs'),
        `let n = 0; process.stdin.on('data', (c) => { n += c.length; });
         process.stdin.on('end', () => require('node:fs').writeFileSync(${JSON.stringify(counted)}, String(n)));`,
      );
      const file = join(base, 'huge.json');
      writeFileSync(file, `{"prompt":"${'x'.repeat(70 * 1024 * 1024)}"}`);
      try {
        const ran = await runHook(side, 'claude-code', [], { file });
        expect(ran).toMatchObject({ code: 0, stdout: '' });
      } finally {
        rmSync(file);
      }
      const size = Number(readFileSync(counted, 'utf8'));
      expect(size).toBeGreaterThan(0);
      expect(size).toBeLessThanOrEqual(64 * 1024 * 1024);
      expect(readdirSync(join(side.hooks, 'tmp'))).toEqual([]);
    }, 120_000);

    it('spools when neither path reaches a collector', async () => {
      const closed = await freePort();
      const side = sideWith(`down-${to}`, { pid: 1, host: '127.0.0.1', port: closed, hooks: true });
      writeFileSync(join(side.hooks, 'settings.json'), JSON.stringify({ port: closed }));
      const ran = await runHook(side, 'claude-code', [], prompt(`sess-down-${to}`));
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe('');
      expect(spoolStatus(side.hooks).pending).toBe(1);
    });

    it('has the collector replay the spool after a fast-path hook (the fast path never does)', async () => {
      const spooled = {
        event_id: newEventId(),
        session_id: 'sess-spooled',
        actor_id: actor(),
        namespace: namespace(),
        schema_version: 1,
        kind: 'note',
        body: { type: 'text', content: 'spooled while the collector was down' },
        valid_time: new Date().toISOString(),
        source: { surface: 'claude-code', version: '0.1.0', client_id: 'test' },
      } as const;
      spoolEvent(fast.hooks, spooled);
      const ran = await runHook(fast, 'claude-code', [], prompt(`sess-after-spool-${to}`));
      expect(ran.stderr).toBe('');
      for (let attempt = 0; attempt < 400; attempt++) {
        if ((await stored(fast)).some((e) => e.event_id === spooled.event_id)) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the collector did not replay the spool');
    });
  });
});

describe('the installed launcher', () => {
  it('exits 0 and prints nothing when the hook scripts are gone', async () => {
    const side = { name: 'fast path' as const, hooks: join(base, 'purged'), data: '', port: 0 };
    mkdirSync(join(side.hooks, 'bin'), { recursive: true });
    writeFileSync(
      join(side.hooks, 'bin', 'kiro-learn-hook'),
      hookLauncher({
        node: { path: process.execPath, version: process.versions.node },
        ...(curl ? { curl } : {}),
        ...(bash ? { bash } : {}),
      }),
      { mode: 0o755 },
    );
    const ran = await runHook(side, 'claude-code', [], '{"hook_event_name":"Stop"}');
    expect(ran).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('is checked by sh -n, and its bash part by bash -n', () => {
    const text = hookLauncher({
      node: { path: '/opt/node 20/bin/node', version: '20.16.0' },
      curl: '/usr/bin/curl',
      bash: '/usr/bin/bash',
    });
    execFileSync('/bin/sh', ['-n'], { input: text });
    expect(text).toContain("'/opt/node 20/bin/node'");
    expect(defaultBundleDir()).toBeTruthy();
    // The script bash runs is one quoted word of the launcher: unquoted, it parses too.
    const quoted = / -p -c ('(?:[^']|'\\'')*') /.exec(text)?.[1];
    expect(quoted).toBeDefined();
    const script = quoted!.slice(1, -1).replaceAll(`'\\''`, "'");
    if (bash) execFileSync(bash, ['-n'], { input: script });
  });
});
