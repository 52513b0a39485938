// `kiro-learn init` / `uninstall` on copies of real-looking project config files.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultBundleDir } from '../src/bundles.js';
import { ShimsError } from '../src/errors.js';
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
    surfaces: ['kiro-cli', 'kiro-ide', 'claude-code'],
    legacyIde: true,
    node: '/opt/node 22/bin/node',
    bundleDir: defaultBundleDir(),
    mcpServer: { command: '/usr/bin/node', args: ['/opt/kiro-learn/mcp/cli.js'] },
    compressorAgent: { name: 'kiro-learn-compressor', prompt: 'Distil.', tools: [] },
  };
});

describe('init', () => {
  it('merges into existing files, keeping everything it does not own', () => {
    applyPlan(planInit(options));
    const claude = json(join(project, '.claude', 'settings.json'));
    expect(claude.permissions).toEqual({ allow: ['Bash(pnpm test:*)', 'Read(src/**)'] });
    expect(claude.model).toBe('sonnet');
    expect(claude.hooks.PostToolUse).toHaveLength(2);
    expect(claude.hooks.PostToolUse[0].matcher).toBe('Edit|Write');
    expect(Object.keys(claude.hooks)).toEqual([
      'PostToolUse',
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUseFailure',
      'PreCompact',
      'Stop',
      'SessionEnd',
    ]);

    // The hook runs a copy in the data dir, with a quoted Node path: no repo checkout involved.
    const script = join(base, 'data', 'bin', 'kiro-learn-claude-code.cjs');
    expect(claude.hooks.Stop[0].hooks[0].command).toBe(`'/opt/node 22/bin/node' ${script}`);
    expect(readFileSync(script, 'utf8')).toBe(
      readFileSync(join(defaultBundleDir(), 'claude-code.cjs'), 'utf8'),
    );

    const mcp = readFileSync(join(project, '.mcp.json'), 'utf8');
    expect(Object.keys(JSON.parse(mcp).mcpServers)).toEqual(['github', 'kiro-learn']);
    expect(mcp).toMatch(/^\{\n {4}"mcpServers"/); // its own 4-space indentation
    expect(json(join(project, '.kiro', 'settings', 'mcp.json')).mcpServers['kiro-learn']).toEqual(
      options.mcpServer,
    );

    const hooks = json(join(project, '.kiro', 'hooks', 'kiro-learn.json'));
    expect(hooks.version).toBe('v1');
    expect(hooks.hooks.map((hook: { trigger: string }) => hook.trigger)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'Stop',
    ]);
    expect(
      json(join(project, '.kiro', 'agents', 'kiro-learn.json')).hooks.userPromptSubmit[0].command,
    ).toContain('kiro-learn-kiro.cjs');
    expect(
      json(join(project, '.kiro', 'hooks', 'kiro-learn-prompt.kiro.hook')).then.command,
    ).toMatch(/kiro-learn-kiro-ide\.cjs prompt$/);
    expect(json(join(base, 'home', '.kiro', 'agents', 'kiro-learn-compressor.json')).name).toBe(
      'kiro-learn-compressor',
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
    const before = snapshot(base);
    const plan = planInit({ ...options, cwd: join(project, '.claude') });
    const text = formatPlan(plan, true);
    expect(snapshot(base)).toEqual(before);
    expect(text).toContain('dry run, nothing written');
    expect(text).toMatch(/update +\.claude\/settings\.json +adds kiro-learn hooks/);
    expect(text).toMatch(/create +\.kiro\/hooks\/kiro-learn\.json/);
    expect(text).toMatch(/create +~\/\.kiro\/agents\/kiro-learn-compressor\.json/);
  });

  it('refuses, writing nothing, when a file it must edit is not valid JSON', () => {
    writeFileSync(join(project, '.claude', 'settings.json'), '{ "hooks": { ');
    const before = snapshot(base);
    let error: unknown;
    try {
      applyPlan(planInit(options));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ShimsError);
    expect(error).toMatchObject({ code: 'invalid_json' });
    expect((error as Error).message).toMatch(
      /^\.claude\/settings\.json is not valid JSON \(.+\); fix it/,
    );
    expect(snapshot(base)).toEqual(before);
  });

  it('refuses the home directory, which is not a project', () => {
    expect(() => planInit({ ...options, cwd: join(base, 'home') })).toThrow(
      /home directory, not a project/,
    );
  });

  it('installs only the surfaces asked for', () => {
    const plan = planInit({ ...options, surfaces: ['claude-code'], legacyIde: false });
    expect(plan.changes.map((change) => change.shown).sort()).toEqual([
      '.claude/settings.json',
      '.mcp.json',
      join(base, 'data', 'bin', 'kiro-learn-claude-code.cjs'),
      '~/.kiro/agents/kiro-learn-compressor.json',
    ]);
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

  it('with --purge also removes the data dir and the compressor agent', () => {
    applyPlan(planInit(options));
    applyPlan(planUninstall({ cwd: project, env, purge: true }));
    expect(existsSync(join(base, 'data'))).toBe(false);
    expect(existsSync(join(base, 'home', '.kiro', 'agents', 'kiro-learn-compressor.json'))).toBe(
      false,
    );
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
    const command: string = json(join(project, '.claude', 'settings.json')).hooks
      .UserPromptSubmit[0].hooks[0].command;
    const payload = JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 's',
      cwd: project,
      prompt: 'hi',
    });
    const stdout = execFileSync('/bin/sh', ['-c', command], {
      input: payload,
      env: { ...env, KIRO_LEARN_PORT: '9', KIRO_LEARN_AUTOSTART: '0' },
      cwd: base,
    });
    expect(stdout.toString()).toBe('');
    const spooled = readFileSync(join(base, 'data', 'spool', 'pending.jsonl'), 'utf8');
    expect(JSON.parse(spooled)).toMatchObject({
      kind: 'prompt',
      source: { surface: 'claude-code', project_path: project },
    });
  });
});
