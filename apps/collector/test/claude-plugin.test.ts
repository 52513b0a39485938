// The Claude Code plugin (claude-plugin/, listed by the repository's
// .claude-plugin/marketplace.json): its manifest is what Claude Code's plugin reference
// describes, its hooks are the ones `kiro-learn init` writes for Claude Code, and its hook
// commands and MCP server run from kiro-learn's bins the way Claude Code runs them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCurl, pluginHookCommand, pluginLauncher } from '@kiro-learn/shims';
import { cli, envFor, freePort, NO_MODEL, tempHome } from '@kiro-learn/test-harness';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pkgDir = fileURLToPath(new URL('../', import.meta.url));
const pluginDir = join(pkgDir, 'claude-plugin');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const pkg = readJson(join(pkgDir, 'package.json')) as { bin: Record<string, string> };
const manifest = readJson(join(pluginDir, '.claude-plugin', 'plugin.json'));
const hooksFile = readJson(join(pluginDir, 'hooks', 'hooks.json')) as {
  hooks: Record<
    string,
    Array<{ matcher?: string; hooks: Array<{ type: string; command: string }> }>
  >;
};

/** Hook events Claude Code documents (code.claude.com/docs/en/hooks). */
const CLAUDE_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
];
/** plugin.json keys Claude Code's plugin reference lists. */
const MANIFEST_KEYS = [
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'commands',
  'agents',
  'skills',
  'hooks',
  'mcpServers',
  'outputStyles',
  'lspServers',
];

const root = realpathSync(tempHome());
const bin = join(root, 'bin');
const home = join(root, 'data');
const project = join(root, 'project');
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // kiro-learn's bins on PATH, linked as npm links them for a global install.
  mkdirSync(bin);
  for (const [name, target] of Object.entries(pkg.bin))
    symlinkSync(join(pkgDir, target), join(bin, name));
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{"name":"plugin-demo"}\n');
  env = {
    ...envFor(home, await freePort(), NO_MODEL),
    HOME: root,
    PATH: `${bin}:${process.env['PATH']}`,
    CLAUDE_PLUGIN_ROOT: pluginDir,
  };
  expect(cli(['start'], env).code).toBe(0);
}, 120_000);
afterAll(() => {
  if (env) cli(['stop'], env);
  rmSync(root, { recursive: true, force: true });
});

describe('the Claude Code plugin', () => {
  it('has a manifest Claude Code accepts, listed by the repository marketplace', () => {
    expect(manifest.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(manifest.name).toBe('kiro-learn');
    for (const key of Object.keys(manifest)) expect(MANIFEST_KEYS).toContain(key);
    expect(manifest.license).toBe('MIT');
    const rootPkg = readJson(join(pkgDir, '../../package.json'));
    expect(manifest.homepage).toBe(rootPkg.homepage);
    expect(`git+${manifest.repository}.git`).toBe(rootPkg.repository.url);
    const marketplace = readJson(join(pkgDir, '../../.claude-plugin/marketplace.json'));
    expect(marketplace.owner.name).toBeTruthy();
    expect(marketplace.plugins).toEqual([
      expect.objectContaining({ name: manifest.name, source: './apps/collector/claude-plugin' }),
    ]);
    for (const server of Object.values(manifest.mcpServers) as Array<{ command: string }>) {
      expect(Object.keys(pkg.bin)).toContain(server.command);
    }
    for (const [event, groups] of Object.entries(hooksFile.hooks)) {
      expect(CLAUDE_EVENTS).toContain(event);
      for (const group of groups) {
        for (const hook of group.hooks) {
          expect(hook.type).toBe('command');
          // The plugin's launcher: curl to the collector while it is up, else the shim
          // when it is on the PATH, else nothing; exit 0 either way.
          expect(hook.command).toBe(pluginHookCommand('claude-code'));
          expect(Object.keys(pkg.bin)).toContain('kiro-learn-shim');
        }
      }
    }
  });

  it('ships the hook launcher init writes, with the shim from the PATH as its fallback', () => {
    const shipped = readFileSync(join(pluginDir, 'hooks', 'kiro-learn-hook'), 'utf8');
    expect(
      shipped === pluginLauncher(),
      'claude-plugin/hooks/kiro-learn-hook is out of date: run node apps/collector/scripts/plugin-launcher.ts',
    ).toBe(true);
    expect(shipped).toContain('exec kiro-learn-shim "$@"');
  });

  it('takes the fast path: with curl on the PATH and the collector up, a hook records without the shim', () => {
    const onlyCurl = join(root, 'only-curl');
    mkdirSync(onlyCurl, { recursive: true });
    symlinkSync(findCurl(process.env)!, join(onlyCurl, 'curl'));
    const before = (JSON.parse(cli(['status', '--json'], env).stdout) as { events: number }).events;
    const hook = hooksFile.hooks['UserPromptSubmit']![0]!.hooks[0]!;
    const run = spawnSync('/bin/sh', ['-c', hook.command], {
      cwd: project,
      env: { ...env, PATH: onlyCurl },
      encoding: 'utf8',
      input: JSON.stringify({
        session_id: 'plugin-fast',
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'does the plugin hook need Node while the collector is up?',
      }),
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const after = (JSON.parse(cli(['status', '--json'], env).stdout) as { events: number }).events;
    expect(after).toBe(before + 1);
  });

  it("carries kiro-learn's version in its manifest and its marketplace entry, so /plugin update sees a release", () => {
    const { version } = readJson(join(pkgDir, 'package.json')) as { version: string };
    expect(manifest.version).toBe(version);
    const marketplace = readJson(join(pkgDir, '../../.claude-plugin/marketplace.json'));
    expect(marketplace.plugins[0].version).toBe(version);
    // The release flow keeps them in step (tests/release/test/version.test.ts runs it).
    const rootPkg = readJson(join(pkgDir, '../../package.json'));
    expect(rootPkg.scripts['version-packages']).toMatch(/scripts\/sync-plugin-version\.mjs/);
  });

  it('hooks the same events as kiro-learn init --surface claude-code', () => {
    const initProject = join(root, 'init-project');
    mkdirSync(initProject);
    writeFileSync(join(initProject, 'package.json'), '{"name":"init-demo"}\n');
    expect(cli(['init', '--surface', 'claude-code', '--yes'], env, initProject).code).toBe(0);
    const settings = readJson(
      join(initProject, '.claude', 'settings.local.json'),
    ) as typeof hooksFile;
    const shape = (hooks: typeof hooksFile.hooks) =>
      Object.fromEntries(
        Object.entries(hooks).map(([event, groups]) => [event, groups.map((g) => g.matcher ?? '')]),
      );
    expect(shape(hooksFile.hooks)).toEqual(shape(settings.hooks));
  });

  it('runs its hook commands as Claude Code does: exit 0, nothing on stderr, every event recorded', () => {
    const payloads: Record<string, object> = {
      SessionStart: { source: 'startup' },
      UserPromptSubmit: { prompt: 'why does the plugin test need a collector?' },
      PostToolUse: {
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
        tool_response: { stdout: '12 passed', exit_code: 0 },
      },
      PostToolUseFailure: {
        tool_name: 'Bash',
        tool_input: { command: 'npm run lint' },
        error: 'Command failed with exit code 1',
      },
      PreCompact: { trigger: 'manual', custom_instructions: '' },
      Stop: { last_assistant_message: 'The plugin hooks post to the local collector.' },
      StopFailure: { error: 'server_error', error_details: '529 Overloaded' },
      SessionEnd: { reason: 'exit' },
    };
    for (const [event, groups] of Object.entries(hooksFile.hooks)) {
      for (const hook of groups.flatMap((g) => g.hooks)) {
        const run = spawnSync('sh', ['-c', hook.command], {
          cwd: project,
          env,
          encoding: 'utf8',
          input: JSON.stringify({
            session_id: 'plugin-session',
            transcript_path: join(root, 'none.jsonl'),
            cwd: project,
            hook_event_name: event,
            ...payloads[event],
          }),
        });
        expect(run.stderr, event).toBe('');
        expect(run.status, event).toBe(0);
      }
    }
    const status = JSON.parse(cli(['status', '--json'], env).stdout) as { events: number };
    // The prompt, the tool use, the failure and the turn end at least.
    expect(status.events).toBeGreaterThanOrEqual(4);
  });

  it('without kiro-learn-shim on the PATH, every hook exits 0 and does nothing; doctor says so once', () => {
    const empty = join(root, 'empty-path');
    mkdirSync(empty, { recursive: true });
    const bare = { ...env, PATH: empty };
    const before = (JSON.parse(cli(['status', '--json'], env).stdout) as { events: number }).events;
    for (const [event, groups] of Object.entries(hooksFile.hooks)) {
      for (const hook of groups.flatMap((g) => g.hooks)) {
        const run = spawnSync('/bin/sh', ['-c', hook.command], {
          cwd: project,
          env: bare,
          encoding: 'utf8',
          input: JSON.stringify({
            session_id: 'plugin-session',
            cwd: project,
            hook_event_name: event,
            prompt: 'is anything recorded without the shim?',
          }),
        });
        expect({ event, status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
          event,
          status: 0,
          stdout: '',
          stderr: '',
        });
      }
    }
    const after = (JSON.parse(cli(['status', '--json'], env).stdout) as { events: number }).events;
    expect(after).toBe(before);

    // The plugin is enabled for this user: doctor names the missing shim, once.
    mkdirSync(join(root, '.claude'), { recursive: true });
    writeFileSync(
      join(root, '.claude', 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'kiro-learn@kiro-learn': true } }),
    );
    try {
      const without = cli(['doctor'], bare, project).stdout;
      const warning =
        '! Claude Code plugin kiro-learn is enabled, but kiro-learn-shim is not on the PATH: its hooks do nothing';
      expect(without.split('\n').filter((l) => l === warning)).toHaveLength(1);
      expect(without).toMatch(/→ put kiro-learn on the PATH: \.\/pnpmw kiro-learn install/);
      const withShim = cli(['doctor'], env, project).stdout;
      expect(withShim).toMatch(
        new RegExp(
          `✓ Claude Code plugin kiro-learn: its hooks post with \\S*curl while the collector is up, else run ${join(bin, 'kiro-learn-shim')}`,
        ),
      );
    } finally {
      rmSync(join(root, '.claude', 'settings.json'));
    }
  });

  it('starts its MCP server from the bin it names, with every tool', async () => {
    const server = manifest.mcpServers['kiro-learn'] as { command: string; args: string[] };
    const client = new Client({ name: 'claude-code-plugin-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: server.command,
        args: server.args,
        cwd: project,
        env: env as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_memory');
      expect(tools).toHaveLength(8);
    } finally {
      await client.close();
    }
  });
});
