// `kiro-learn init` / `uninstall` on copies of real-looking project config files.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';
import { ShimsError } from '../src/errors.js';
import { INSTALL_SURFACES } from '../src/init/detect.js';
import { MCP_MISSING, PORTABLE_DATA_DIR } from '../src/init/launcher.js';
import {
  applyPlan,
  formatPlan,
  type InitOptions,
  planInit,
  planUninstall,
} from '../src/init/plan.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'init');
let base: string;
let project: string;
let env: NodeJS.ProcessEnv;
let options: InitOptions;

/** Every file under `dir` with its bytes, so "byte-identical" is checked literally. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        files[`${relative(dir, path)}/`] = '';
        walk(path);
      } else files[relative(dir, path)] = readFileSync(path, 'latin1');
    }
  };
  walk(dir);
  return files;
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kl-init-')));
  // Projects live anywhere, not only under the home directory.
  project = join(base, 'srv', 'payments-api');
  cpSync(fixtures, project, { recursive: true });
  mkdirSync(join(base, 'home'));
  env = { HOME: join(base, 'home'), KIRO_LEARN_HOME: join(base, 'data'), PATH: '' };
  options = {
    cwd: join(project),
    env,
    surfaces: [...INSTALL_SURFACES],
    legacyIde: true,
    kiroCliMajor: 2,
    node: { path: '/opt/node 22/bin/node', version: '22.12.0' },
    bundleDir: defaultBundleDir(),
    mcpServer: { command: '/usr/bin/node', args: ['/opt/kiro-learn/mcp/cli.js'] },
    compressorAgent: { name: 'kiro-learn-compressor', prompt: 'Distil.', tools: [] },
  };
});

const launcher = () => join(base, 'data', 'bin', 'kiro-learn-hook');
/** What a committed MCP registration runs: the launcher, or one line saying how to get it. */
const committedMcpCommand = `m="${PORTABLE_DATA_DIR}/bin/kiro-learn-mcp"; [ -x "$m" ] && exec "$m"; echo '${MCP_MISSING}' >&2; exit 1`;
/** Runs an installed hook command as the agent does: `sh -c`, the payload on stdin. */
const runCommand = (command: string, payload: unknown, extra: NodeJS.ProcessEnv = {}) =>
  spawnSync('/bin/sh', ['-c', command], {
    input: JSON.stringify(payload),
    env: {
      ...env,
      PATH: process.env['PATH'],
      KIRO_LEARN_PORT: '9',
      KIRO_LEARN_AUTOSTART: '0',
      ...extra,
    },
    cwd: base,
    encoding: 'utf8',
  });

describe('init', () => {
  it('merges into existing files, keeping everything it does not own', () => {
    applyPlan(planInit(options));
    // Claude Code hooks are personal: settings.local.json; the committed settings are untouched.
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe(
      readFileSync(join(fixtures, '.claude', 'settings.json'), 'utf8'),
    );
    const claude = json(join(project, '.claude', 'settings.local.json'));
    expect(Object.keys(claude.hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'Stop',
      'StopFailure',
      'SessionEnd',
    ]);
    // Every hook declares a timeout: SessionEnd's 1.5 s exit budget is raised to it (≤ 60 s).
    for (const [event, groups] of Object.entries(claude.hooks))
      expect([event, (groups as [{ hooks: [{ timeout: number }] }])[0].hooks[0].timeout]).toEqual([
        event,
        10,
      ]);
    // The hook runs the launcher in the data dir, which runs its copy of the script.
    expect(claude.hooks.Stop[0].hooks[0].command).toBe(
      `kl_bin=${join(base, 'data', 'bin')}; [ -f "$kl_bin/kiro-learn-hook" ] && set -- claude-code && . "$kl_bin/kiro-learn-hook"; exit 0`,
    );
    expect(readFileSync(join(base, 'data', 'bin', 'kiro-learn-claude-code.cjs'), 'utf8')).toBe(
      readFileSync(join(defaultBundleDir(), 'claude-code.cjs'), 'utf8'),
    );
    expect(readFileSync(launcher(), 'utf8')).toContain(`exec '/opt/node 22/bin/node' "$s" "$@"`);
    expect(statSync(launcher()).mode & 0o777).toBe(0o755);

    const mcp = readFileSync(join(project, '.mcp.json'), 'utf8');
    expect(Object.keys(JSON.parse(mcp).mcpServers)).toEqual(['github', 'kiro-learn']);
    expect(mcp).toMatch(/^\{\n {4}"mcpServers"/); // its own 4-space indentation
    expect(readFileSync(join(base, 'data', 'bin', 'kiro-learn-mcp'), 'utf8')).toContain(
      'exec /usr/bin/node /opt/kiro-learn/mcp/cli.js "$@"',
    );
    const kiroMcp = json(join(project, '.kiro', 'settings', 'mcp.json')).mcpServers;
    expect(Object.keys(kiroMcp)).toEqual(['fetch', 'kiro-learn']);

    const hooks = json(join(project, '.kiro', 'hooks', 'kiro-learn.json'));
    expect(hooks.version).toBe('v1');
    expect(hooks.hooks.map((hook: { trigger: string }) => hook.trigger)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'Stop',
    ]);
    expect(hooks.hooks[0].action.command).toMatch(
      /set -- kiro kiro-ide && \. "\$kl_bin\/kiro-learn-hook"; exit 0$/,
    );
    const agent = json(join(project, '.kiro', 'agents', 'kiro-learn.json'));
    expect(agent.hooks.userPromptSubmit[0].command).toMatch(
      /set -- kiro && \. "\$kl_bin\/kiro-learn-hook"; exit 0$/,
    );
    // The MCP server is registered once: through mcp.json, which the agent includes.
    expect(agent.includeMcpJson).toBe(true);
    expect(agent.mcpServers).toBeUndefined();
    expect(agent.resources.length).toBeGreaterThan(0);
    const legacyTool = json(join(project, '.kiro', 'hooks', 'kiro-learn-tool.kiro.hook'));
    expect(legacyTool.when).toEqual({ type: 'postToolUse', toolTypes: ['*'] });
    expect(legacyTool.then.command).toMatch(
      /set -- kiro-ide tool && \. "\$kl_bin\/kiro-learn-hook"; exit 0$/,
    );
  });

  it('writes no path of this machine into the files teams commit', () => {
    mkdirSync(join(base, 'home', '.kiro'));
    applyPlan(planInit(options));
    const committed = [
      '.claude/settings.json',
      '.mcp.json',
      '.codex/hooks.json',
      '.codex/config.toml',
      '.gemini/settings.json',
      '.cursor/hooks.json',
      '.cursor/mcp.json',
      '.github/hooks/kiro-learn.json',
      '.vscode/mcp.json',
      '.clinerules/hooks/TaskStart',
      '.opencode/plugins/kiro-learn.js',
      'opencode.json',
      '.windsurf/hooks.json',
      ...readdirSync(join(project, '.kiro'), { recursive: true, encoding: 'utf8' })
        .map((path) => `.kiro/${path}`)
        .filter((path) => /\.(json|kiro\.hook)$/.test(path)),
    ];
    expect(committed).toContain('.kiro/hooks/kiro-learn.json');
    for (const path of committed) {
      const text = readFileSync(join(project, path), 'utf8');
      expect(text, path).not.toContain(base);
      expect(text, path).not.toContain('/opt/');
    }
    // The personal file may say where things are on this machine.
    expect(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')).toContain(base);
  });

  it('installs Codex, Gemini CLI and Cursor hooks in their own formats', () => {
    writeFileSync(join(project, 'package.json'), '{"name": "payments-api"}\n');
    mkdirSync(join(project, '.codex'));
    writeFileSync(
      join(project, '.codex', 'config.toml'),
      'model = "gpt-5.1-codex"\n\n[mcp_servers.github]\ncommand = "npx"\n',
    );
    const plan = planInit(options);
    expect(plan.notes?.some((note) => /Codex CLI: run \/hooks in Codex once/.test(note))).toBe(
      true,
    );
    applyPlan(plan);
    const codex = json(join(project, '.codex', 'hooks.json'));
    expect(Object.keys(codex.hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PreCompact',
      'Stop',
    ]);
    expect(codex.hooks.Stop[0].hooks[0].command).toMatch(
      /set -- codex && \. "\$kl_bin\/kiro-learn-hook"; exit 0$/,
    );
    expect(readFileSync(join(project, '.codex', 'config.toml'), 'utf8')).toBe(
      'model = "gpt-5.1-codex"\n\n[mcp_servers.github]\ncommand = "npx"\n\n[mcp_servers.kiro-learn]\n' +
        `command = "sh"\nargs = ["-c", ${JSON.stringify(committedMcpCommand)}]\n`,
    );
    const gemini = json(join(project, '.gemini', 'settings.json'));
    expect(Object.keys(gemini.hooks)).toEqual([
      'SessionStart',
      'BeforeAgent',
      'AfterTool',
      'AfterAgent',
      'PreCompress',
      'SessionEnd',
    ]);
    expect(gemini.hooks.AfterTool[0]).toMatchObject({
      matcher: '.*',
      hooks: [{ type: 'command', timeout: 10000 }],
    });
    expect(Object.keys(gemini.mcpServers)).toEqual(['kiro-learn']);
    const cursor = json(join(project, '.cursor', 'hooks.json'));
    expect(cursor.version).toBe(1);
    expect(Object.keys(cursor.hooks)).toContain('afterAgentResponse');
    expect(cursor.hooks.beforeSubmitPrompt[0].command).toMatch(
      /set -- cursor && \. "\$kl_bin\/kiro-learn-hook"; exit 0$/,
    );
    expect(Object.keys(json(join(project, '.cursor', 'mcp.json')).mcpServers)).toEqual([
      'kiro-learn',
    ]);
    applyPlan(planUninstall({ cwd: project, env }));
    expect(readFileSync(join(project, '.codex', 'config.toml'), 'utf8')).toBe(
      'model = "gpt-5.1-codex"\n\n[mcp_servers.github]\ncommand = "npx"\n',
    );
    for (const gone of ['.codex/hooks.json', '.gemini', '.cursor'])
      expect(existsSync(join(project, gone))).toBe(false);
  });

  it('installs Copilot CLI, VS Code, Cline, OpenCode, Augment and Windsurf in their own formats', () => {
    applyPlan(planInit(options));
    // Copilot CLI and VS Code agent mode share one committed hook file.
    const github = json(join(project, '.github', 'hooks', 'kiro-learn.json'));
    expect(github.version).toBe(1);
    expect(Object.keys(github.hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'ErrorOccurred',
      'PreCompact',
      'Stop',
      'SessionEnd',
    ]);
    expect(github.hooks.PostToolUse[0]).toMatchObject({ type: 'command', timeout: 10 });
    expect(github.hooks.PostToolUse[0].command).toMatch(
      /set -- copilot && \. "\$kl_bin\/kiro-learn-hook"; exit 0$/,
    );
    expect(json(join(project, '.vscode', 'mcp.json')).servers['kiro-learn']).toMatchObject({
      type: 'stdio',
      command: 'sh',
    });
    // Cline: one executable file per hook.
    const taskStart = join(project, '.clinerules', 'hooks', 'TaskStart');
    expect(statSync(taskStart).mode & 0o111).not.toBe(0);
    expect(readFileSync(taskStart, 'utf8')).toMatch(
      /set -- cline && \. "\$kl_bin\/kiro-learn-hook"\n/,
    );
    // OpenCode: a plugin that runs the hook command, the MCP server in opencode.json.
    expect(readFileSync(join(project, '.opencode', 'plugins', 'kiro-learn.js'), 'utf8')).toContain(
      'set -- opencode && . \\"$kl_bin/kiro-learn-hook\\"; exit 0',
    );
    expect(json(join(project, 'opencode.json')).mcp['kiro-learn']).toMatchObject({
      type: 'local',
      command: ['sh', '-c', committedMcpCommand],
    });
    // Augment: personal settings, a .sh hook script, milliseconds.
    const augment = json(join(project, '.augment', 'settings.local.json'));
    expect(Object.keys(augment.hooks)).toEqual([
      'SessionStart',
      'PostToolUse',
      'Stop',
      'SessionEnd',
    ]);
    expect(augment.hooks.Stop[0].hooks[0]).toMatchObject({
      command: join(base, 'data', 'bin', 'kiro-learn-augment.sh'),
      timeout: 10000,
      metadata: { includeConversationData: true },
    });
    expect(Object.keys(augment.mcpServers)).toEqual(['kiro-learn']);
    // Windsurf: capture only.
    const windsurf = json(join(project, '.windsurf', 'hooks.json'));
    expect(Object.keys(windsurf.hooks)).toContain('post_cascade_response');
    expect(windsurf.hooks.post_run_command[0]).toMatchObject({ show_output: false });
  });

  it("declares on every hook a timeout below its agent's limit", () => {
    applyPlan(planInit(options));
    const timeouts = (file: string, pick: (hooks: Record<string, unknown[]>) => unknown[]) =>
      pick(json(join(project, file)).hooks);
    const groups = (hooks: Record<string, unknown[]>) =>
      Object.values(hooks).flatMap((list) =>
        (list as { hooks: { timeout: number }[] }[]).flatMap((group) =>
          group.hooks.map((hook) => hook.timeout),
        ),
      );
    const flat = (key: string) => (hooks: Record<string, unknown[]>) =>
      Object.values(hooks).flatMap((list) =>
        (list as Record<string, number>[]).map((hook) => hook[key]),
      );
    // [file, timeouts, the agent's limit in the same unit]
    const cases: [string, unknown[], number][] = [
      ['.claude/settings.local.json', timeouts('.claude/settings.local.json', groups), 60], // SessionEnd's cap
      ['.codex/hooks.json', timeouts('.codex/hooks.json', groups), 600],
      ['.gemini/settings.json', timeouts('.gemini/settings.json', groups), 60_000],
      ['.cursor/hooks.json', timeouts('.cursor/hooks.json', flat('timeout')), 60],
      [
        '.github/hooks/kiro-learn.json',
        timeouts('.github/hooks/kiro-learn.json', flat('timeout')),
        30,
      ],
      ['.augment/settings.local.json', timeouts('.augment/settings.local.json', groups), 60_000],
      [
        '.kiro/agents/kiro-learn.json',
        timeouts('.kiro/agents/kiro-learn.json', flat('timeout_ms')),
        30_000,
      ],
    ];
    for (const [file, values, limit] of cases) {
      expect(values.length, file).toBeGreaterThan(0);
      for (const value of values) {
        expect(typeof value, file).toBe('number');
        expect(value as number, file).toBeLessThan(limit);
      }
    }
    const workspace = json(join(project, '.kiro', 'hooks', 'kiro-learn.json'));
    for (const hook of workspace.hooks) expect(hook.timeout).toBe(10);
  });

  it('adds the personal settings files to .gitignore in a git repository, and uninstall takes them out', () => {
    execFileSync('git', ['init', '-q', project]);
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    const before = snapshot(project);
    const plan = planInit(options);
    expect(formatPlan(plan, true)).toMatch(
      /\.gitignore\s+ignores \.claude\/settings\.local\.json, \.augment\/settings\.local\.json/,
    );
    applyPlan(plan);
    expect(readFileSync(join(project, '.gitignore'), 'utf8')).toBe(
      "node_modules/\n\n# kiro-learn: personal settings with this machine's paths (kiro-learn init)\n.claude/settings.local.json\n.augment/settings.local.json\n",
    );
    const ignored = spawnSync('git', ['check-ignore', '-q', '.claude/settings.local.json'], {
      cwd: project,
    });
    expect(ignored.status).toBe(0);
    expect(planInit(options).changes.filter((c) => c.action !== 'unchanged')).toEqual([]);
    applyPlan(planUninstall({ cwd: project, env }));
    expect(snapshot(project)).toEqual(before);
  });

  it('leaves .gitignore alone when git ignores the personal files already', () => {
    execFileSync('git', ['init', '-q', project]);
    writeFileSync(join(project, '.gitignore'), '*.local.json\n');
    const plan = planInit(options);
    expect(plan.changes.some((change) => change.shown === '.gitignore')).toBe(false);
  });

  it('a committed MCP registration says on stderr how to get kiro-learn where it is not installed', () => {
    applyPlan(planInit(options));
    const server = json(join(project, '.mcp.json')).mcpServers['kiro-learn'];
    const teammate = mkdtempSync(join(tmpdir(), 'kl-teammate-'));
    const ran = spawnSync(server.command, server.args, {
      cwd: project,
      env: { PATH: process.env['PATH'], HOME: teammate },
      encoding: 'utf8',
    });
    expect(ran).toMatchObject({ status: 1, stdout: '', stderr: `${MCP_MISSING}\n` });
    expect(MCP_MISSING).toMatch(/kiro-learn is not installed.*install it.*kiro-learn init/);
  });

  it('moves the hooks an earlier init wrote into the committed Claude Code settings', () => {
    const settings = join(project, '.claude', 'settings.json');
    const earlier = json(settings);
    earlier.hooks.Stop = [
      {
        hooks: [
          {
            type: 'command',
            command: '/usr/bin/node /home/dev/.kiro-learn/bin/kiro-learn-claude-code.cjs',
          },
        ],
      },
    ];
    writeFileSync(settings, `${JSON.stringify(earlier, null, 2)}\n`);
    applyPlan(planInit(options));
    expect(readFileSync(settings, 'utf8')).toBe(
      readFileSync(join(fixtures, '.claude', 'settings.json'), 'utf8'),
    );
  });

  it('is idempotent: a second run plans nothing and changes no byte', () => {
    applyPlan(planInit(options));
    const before = { ...snapshot(project), ...snapshot(base) };
    const again = planInit(options);
    expect(again.changes.filter((change) => change.action !== 'unchanged')).toEqual([]);
    applyPlan(again);
    expect({ ...snapshot(project), ...snapshot(base) }).toEqual(before);
    expect(formatPlan(again, false)).toBe(`kiro-learn: nothing to change in ${project}\n`);
  });

  it('shows what it would change on a dry run and writes nothing', () => {
    mkdirSync(join(base, 'home', '.kiro'));
    const before = snapshot(base);
    const plan = planInit({ ...options, cwd: join(project, '.claude') });
    const text = formatPlan(plan, true);
    expect(snapshot(base)).toEqual(before);
    expect(text).toContain('dry run, nothing written');
    expect(text).toMatch(
      /create +\.claude\/settings\.local\.json +adds kiro-learn hooks \(personal, not committed\)/,
    );
    expect(text).toMatch(/create +\.kiro\/hooks\/kiro-learn\.json/);
    expect(text).toMatch(/create +~\/\.kiro\/agents\/kiro-learn-compressor\.json/);
  });

  it('refuses, writing nothing, when a file it must edit is not valid JSON', () => {
    writeFileSync(join(project, '.mcp.json'), '{ "mcpServers": { ');
    const before = snapshot(base);
    let error: unknown;
    try {
      applyPlan(planInit(options));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ShimsError);
    expect(error).toMatchObject({ code: 'invalid_json' });
    expect((error as Error).message).toMatch(/^\.mcp\.json is not valid JSON \(.+\); fix it/);
    expect(snapshot(base)).toEqual(before);
  });

  it('refuses the home directory, which is not a project', () => {
    expect(() => planInit({ ...options, cwd: join(base, 'home') })).toThrow(
      /home directory, not a project/,
    );
  });

  it('installs only the agents asked for, and never creates ~/.kiro for Claude Code', () => {
    const plan = planInit({ ...options, surfaces: ['claude-code'], legacyIde: false });
    expect(plan.changes.map((change) => change.shown).sort()).toEqual([
      '.claude/settings.local.json',
      '.mcp.json',
      join(base, 'data', 'bin', 'kiro-learn-claude-code.cjs'),
      join(base, 'data', 'bin', 'kiro-learn-hook'),
      join(base, 'data', 'bin', 'kiro-learn-mcp'),
    ]);
    applyPlan(plan);
    expect(existsSync(join(base, 'home', '.kiro'))).toBe(false);
  });

  it('installs one Kiro mechanism for Kiro CLI v3, which runs the workspace hooks', () => {
    const plan = planInit({
      ...options,
      surfaces: ['kiro-cli'],
      kiroCliMajor: 3,
      legacyIde: false,
    });
    const shown = plan.changes.map((change) => change.shown);
    expect(shown).toContain('.kiro/hooks/kiro-learn.json');
    expect(shown).not.toContain('.kiro/agents/kiro-learn.json');
    expect(plan.notes).toEqual(['Kiro CLI v3 runs the workspace hooks: nothing to select.']);
  });

  it('says how to activate the Kiro CLI agent, and adds the hooks to your own agent on request', () => {
    const mine = join(project, '.kiro', 'agents', 'reviewer.json');
    mkdirSync(join(project, '.kiro', 'agents'));
    const agent = {
      name: 'reviewer',
      tools: ['fs_read'],
      hooks: { stop: [{ command: 'notify-send done' }] },
    };
    writeFileSync(mine, `${JSON.stringify(agent, null, 2)}\n`);
    const before = readFileSync(mine, 'utf8');
    const plan = planInit({ ...options, surfaces: ['kiro-cli'], kiroAgents: ['reviewer'] });
    expect(plan.notes?.[0]).toMatch(
      /kiro-cli chat --agent kiro-learn.*kiro-cli settings chat\.defaultAgent kiro-learn/,
    );
    applyPlan(plan);
    const merged = json(mine);
    expect(merged.hooks.stop).toHaveLength(2);
    expect(merged.hooks.stop[0]).toEqual({ command: 'notify-send done' });
    expect(merged.hooks.postToolUse[0].matcher).toBe('*');
    applyPlan(planUninstall({ cwd: project, env }));
    expect(readFileSync(mine, 'utf8')).toBe(before);
  });

  it('creates the data dir 0700', () => {
    applyPlan(planInit(options));
    expect(statSync(join(base, 'data')).mode & 0o777).toBe(0o700);
  });

  it('writes through a symlinked settings file, keeping the link and the mode', () => {
    const dotfiles = join(base, 'dotfiles');
    mkdirSync(dotfiles);
    const real = join(dotfiles, 'claude-local.json');
    writeFileSync(real, '{\n  "model": "opus"\n}\n');
    chmodSync(real, 0o600);
    const link = join(project, '.claude', 'settings.local.json');
    symlinkSync(real, link);
    applyPlan(planInit({ ...options, surfaces: ['claude-code'] }));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(real).mode & 0o777).toBe(0o600);
    expect(json(real)).toMatchObject({ model: 'opus', hooks: { Stop: expect.any(Array) } });
  });

  it('with --global writes user-level hooks and leaves the project alone', () => {
    mkdirSync(join(base, 'home', '.kiro'));
    const before = snapshot(project);
    const plan = planInit({ ...options, scope: 'global', legacyIde: false });
    applyPlan(plan);
    expect(snapshot(project)).toEqual(before);
    const home = join(base, 'home');
    expect(json(join(home, '.claude', 'settings.json')).hooks.UserPromptSubmit).toHaveLength(1);
    expect(json(join(home, '.claude.json')).mcpServers['kiro-learn'].command).toBe(
      join(base, 'data', 'bin', 'kiro-learn-mcp'),
    );
    expect(json(join(home, '.kiro', 'hooks', 'kiro-learn.json')).version).toBe('v1');
    applyPlan(planUninstall({ cwd: project, env, scope: 'global' }));
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(home, '.kiro', 'hooks'))).toBe(false);
    expect(existsSync(join(home, '.kiro', 'agents', 'kiro-learn-compressor.json'))).toBe(true);
  });
});

describe('uninstall', () => {
  it('removes exactly what init added: project files come back byte-identical', () => {
    const before = snapshot(project);
    applyPlan(planInit(options));
    expect(snapshot(project)).not.toEqual(before);
    applyPlan(planUninstall({ cwd: project, env }));
    expect(snapshot(project)).toEqual(before);
    expect(existsSync(join(base, 'data', 'bin'))).toBe(true); // data is kept
  });

  it('keeps changes the user made to shared files after init', () => {
    applyPlan(planInit(options));
    const path = join(project, '.mcp.json');
    const edited = json(path);
    edited.mcpServers.mine = { command: 'mine' };
    writeFileSync(path, JSON.stringify(edited, null, 2));
    applyPlan(planUninstall({ cwd: project, env }));
    expect(Object.keys(json(path).mcpServers)).toEqual(['github', 'mine']);
  });

  it('with --purge also removes the data dir and the compressor agent, and says what that does to other projects', () => {
    mkdirSync(join(base, 'home', '.kiro'));
    applyPlan(planInit(options));
    const plan = planUninstall({ cwd: project, env, purge: true });
    expect(formatPlan(plan, true)).toMatch(/hooks left in other projects then do nothing/);
    applyPlan(plan);
    expect(existsSync(join(base, 'data'))).toBe(false);
    expect(existsSync(join(base, 'home', '.kiro', 'agents', 'kiro-learn-compressor.json'))).toBe(
      false,
    );
  });

  it("after a purge elsewhere, another project's hooks exit 0 silently", () => {
    const other = join(base, 'srv', 'other');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'package.json'), '{}');
    applyPlan(planInit({ ...options, cwd: other, node: process.execPath }));
    applyPlan(planInit(options));
    applyPlan(planUninstall({ cwd: project, env, purge: true }));
    const commands = [
      json(join(other, '.claude', 'settings.local.json')).hooks.Stop[0].hooks[0].command,
      json(join(other, '.kiro', 'hooks', 'kiro-learn.json')).hooks[1].action.command,
    ];
    for (const command of commands) {
      const ran = runCommand(command, { hook_event_name: 'Stop', cwd: other });
      expect(ran, command).toMatchObject({ status: 0, stdout: '', stderr: '' });
    }
  });

  it('leaves a project without kiro-learn as it is', () => {
    const before = snapshot(project);
    const plan = planUninstall({ cwd: project, env });
    expect(plan.changes).toEqual([]);
    applyPlan(plan);
    expect(snapshot(project)).toEqual(before);
  });
});

describe('an installed hook', () => {
  it('runs from the data dir and records the event while the collector is down', () => {
    applyPlan(planInit({ ...options, node: process.execPath }));
    const command: string = json(join(project, '.claude', 'settings.local.json')).hooks
      .UserPromptSubmit[0].hooks[0].command;
    const ran = runCommand(command, {
      hook_event_name: 'UserPromptSubmit',
      session_id: 's',
      cwd: project,
      prompt: 'hi',
    });
    expect(ran).toMatchObject({ status: 0, stdout: '' });
    const spooled = readFileSync(join(base, 'data', 'spool', 'pending.jsonl'), 'utf8');
    expect(JSON.parse(spooled)).toMatchObject({
      kind: 'prompt',
      source: { surface: 'claude-code', project_path: project },
    });
  });

  it('runs from a committed Kiro file on a teammate machine, finding kiro-learn through $HOME', () => {
    // The teammate's own kiro-learn lives in ~/.kiro-learn: no KIRO_LEARN_HOME.
    const teammate = { ...env, KIRO_LEARN_HOME: join(base, 'home', '.kiro-learn') };
    applyPlan(planInit({ ...options, env: teammate, node: process.execPath }));
    const command: string = json(join(project, '.kiro', 'hooks', 'kiro-learn.json')).hooks[1].action
      .command;
    const { KIRO_LEARN_HOME: _unset, ...withoutHome } = teammate;
    const ran = spawnSync('/bin/sh', ['-c', command], {
      input: JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: 's',
        cwd: project,
        prompt: 'hi',
      }),
      env: {
        ...withoutHome,
        PATH: process.env['PATH'],
        KIRO_LEARN_PORT: '9',
        KIRO_LEARN_AUTOSTART: '0',
      },
      encoding: 'utf8',
    });
    expect(ran).toMatchObject({ status: 0, stdout: '' });
    const spooled = readFileSync(
      join(base, 'home', '.kiro-learn', 'spool', 'pending.jsonl'),
      'utf8',
    );
    expect(JSON.parse(spooled)).toMatchObject({ kind: 'prompt', source: { surface: 'kiro-ide' } });
  });
});
