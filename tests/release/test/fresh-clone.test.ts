// The README's quick start on a fresh clone, in order: start, connect (install), and a
// Claude Code turn in a scratch project through the installed hooks, which brings memory
// back on the next prompt, found by meaning on onnxruntime-node. The clone is moved away
// before the turn: nothing installed may depend on it. (The third command, the test
// command, is what runs this.)
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Fresh, type Ran, sh } from './fresh.js';
import { repoRoot } from './pack.js';

let fresh: Fresh;
beforeAll(() => {
  fresh = inject('fresh');
});

const said = (ran: Ran) => `${ran.stdout}${ran.stderr}`;
const lines = (ran: Ran) => said(ran).split('\n').filter(Boolean);

/** A Claude Code payload from the repository's fixtures, for this session and project. */
function payload(event: string, project: string, fields: object = {}): string {
  // fields may name another session_id (a new session); the fixture's own never leaks in.
  const fixture = JSON.parse(
    readFileSync(
      join(repoRoot, 'tests/e2e/fixtures/hook-payloads/claude-code', `${event}.json`),
      'utf8',
    ),
  ) as Record<string, unknown>;
  return JSON.stringify({
    ...fixture,
    session_id: 'fresh-clone-session',
    transcript_path: join(project, 'no-transcript.jsonl'),
    cwd: project,
    ...fields,
  });
}

describe('a fresh clone, the README quick start as written', () => {
  it('./pnpmw kiro-learn start: one line per phase, no nags, at most 15 lines, a running collector', () => {
    const { start } = fresh;
    expect(start.status, said(start)).toBe(0);
    const out = lines(start);
    expect(out.length, said(start)).toBeLessThanOrEqual(15);
    for (const text of out) {
      expect(text).toMatch(
        /^(\[pnpmw\] installing (Node \d+|pnpm|dependencies).*… done in \d+ s|\[kiro-learn\] building… done in \d+ s|kiro-learn collector started \(pid \d+\) at http:\/\/127\.0\.0\.1:\d+|logs: \/.+)$/,
      );
    }
    expect(said(start)).toMatch(/\[pnpmw\] installing dependencies… done in \d+ s/);
    expect(said(start)).not.toMatch(/update available|npm notice|telemetry|installingnode/i);
  });

  it('./pnpmw kiro-learn install: the three commands on the PATH, where, the disk it takes, how to undo it', () => {
    const { install, binDir, installDir } = fresh;
    expect(install.status, said(install)).toBe(0);
    expect(install.stdout).toMatch(/^kiro-learn \d+\.\d+\.\d+ is installed:$/m);
    expect(install.stdout).toContain(
      '  commands:   kiro-learn, kiro-learn-shim, kiro-learn-mcp in ~/.local/bin',
    );
    expect(install.stdout).toMatch(
      /^ {2}program: {4}~\/\.local\/share\/kiro-learn \(\d+ MB on disk/m,
    );
    expect(install.stdout).toContain('  embeddings: onnxruntime-node (the fast runtime)');
    expect(install.stdout).toMatch(/^ {2}undo: {7}kiro-learn uninstall --self/m);
    expect(install.stdout).toMatch(
      /^Next, in the project your agent should remember: kiro-learn init$/m,
    );
    // ~/.local/bin is on this user's PATH: no advice to add it.
    expect(install.stdout).not.toMatch(/not on your PATH/);
    expect(install.stderr).toMatch(/^packing \d+ packages… done in \d+ s$/m);
    expect(lines(install).length).toBeLessThanOrEqual(15);
    for (const name of ['kiro-learn', 'kiro-learn-shim', 'kiro-learn-mcp']) {
      const command = readFileSync(join(binDir, name), 'utf8');
      expect(command, name).not.toContain(`${fresh.clone}/`);
      expect(command, name).toContain(installDir);
    }
    // onnxruntime-node survived npm: its install script was skipped, its package kept.
    expect(existsSync(join(installDir, 'node_modules', 'onnxruntime-node', 'package.json'))).toBe(
      true,
    );
  });

  it('with the clone moved away, a Claude Code turn through the installed hooks comes back as memory on the next prompt, found on onnxruntime-node', async () => {
    const { env, home } = fresh;
    const stopped = sh('./pnpmw', ['kiro-learn', 'stop'], fresh.clone, env);
    expect(stopped.status, said(stopped)).toBe(0);
    // Nothing installed may use the checkout: move it where no path names it.
    renameSync(fresh.clone, `${fresh.clone}-moved`);
    fresh.clone = `${fresh.clone}-moved`;

    const project = join(home, 'src', 'payments-api');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), '{"name":"payments-api","private":true}\n');
    // `kiro-learn` is found on the PATH, as a user types it.
    const kiroLearn = (...args: string[]) => sh('kiro-learn', args, project, env);
    const started = kiroLearn('start');
    expect(started.status, said(started)).toBe(0);
    expect(started.stderr).toBe('');
    const init = kiroLearn('init', '--surface', 'claude-code', '--yes');
    expect(init.status, said(init)).toBe(0);

    // The hooks init wrote, run as Claude Code runs them: through the shell, JSON on stdin.
    const settings = JSON.parse(
      readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8'),
    ) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const hook = (event: string, fields: object = {}) => {
      const command = settings.hooks[event]![0]!.hooks[0]!.command;
      const ran = sh('sh', ['-c', command], project, env, payload(event, project, fields));
      expect(ran.status, `${event}: ${said(ran)}`).toBe(0);
      expect(ran.stderr, event).toBe('');
      return ran.stdout;
    };
    hook('SessionStart');
    hook('UserPromptSubmit', {
      prompt: 'Stripe webhooks fail signature verification since the deploy',
    });
    hook('PostToolUseFailure');
    hook('Stop');

    // The turn ended: the built-in extractor distils it, the model embeds the records.
    type Status = {
      memories?: number;
      semantic?: {
        state: string;
        runtime?: string;
        vectors?: { records: number; withVector: number };
      };
    };
    let status: Status = {};
    for (let i = 0; i < 600; i++) {
      status = JSON.parse(kiroLearn('status', '--json').stdout) as Status;
      const v = status.semantic?.vectors;
      if ((status.memories ?? 0) > 0 && v && v.withVector === v.records) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status.memories).toBeGreaterThan(0);
    expect(status.semantic).toMatchObject({ state: 'on', runtime: 'onnxruntime-node' });

    // The next day, a new session: its start brings the turn back.
    const overview = hook('SessionStart', {
      session_id: 'fresh-clone-next-day',
      source: 'startup',
    });
    expect(overview).toContain('## Prior observations from kiro-learn');
    expect(overview).toMatch(/express\.raw/);
    // And the next prompt of a session that brought nothing at its start (an agent that
    // reports no session start), in words the turn never used: only meaning finds it.
    const context = hook('UserPromptSubmit', {
      session_id: 'fresh-clone-other-agent',
      prompt: 'the payment callback keeps getting rejected',
    });
    expect(context).toContain('## Prior observations from kiro-learn');
    expect(context).toMatch(/express\.raw/);

    // The agent's MCP server, started the way .mcp.json says, without the clone.
    const mcp = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers[
      'kiro-learn'
    ] as { command: string; args: string[] };
    const client = new Client({ name: 'fresh-clone', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ ...mcp, cwd: project, env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_memory');
    } finally {
      await client.close();
    }
  });

  it('kiro-learn uninstall --self removes the commands and the program, keeps the memory; the project hooks still exit 0', () => {
    const { env, home, binDir, installDir } = fresh;
    const project = join(home, 'src', 'payments-api');
    const removed = sh('kiro-learn', ['uninstall', '--self', '--yes'], project, env);
    expect(removed.status, said(removed)).toBe(0);
    for (const name of ['kiro-learn', 'kiro-learn-shim', 'kiro-learn-mcp']) {
      expect(existsSync(join(binDir, name)), name).toBe(false);
    }
    expect(existsSync(installDir)).toBe(false);
    expect(existsSync(join(home, '.kiro-learn', 'kiro-learn.db'))).toBe(true);

    // The project's hooks stay until `kiro-learn uninstall` there: they never break the agent.
    const settings = JSON.parse(
      readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8'),
    ) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const command = settings.hooks['UserPromptSubmit']![0]!.hooks[0]!.command;
    const ran = sh(
      'sh',
      ['-c', command],
      project,
      env,
      payload('UserPromptSubmit', project, { prompt: 'anything left?' }),
    );
    // Exit 0, no context; at most its one-line diagnostic on stderr (the event is spooled).
    expect(ran).toMatchObject({ status: 0, stdout: '' });
    expect(ran.stderr).toMatch(/^(\[kiro-learn\] [^\n]*\n)?$/);
  });
});
