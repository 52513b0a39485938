import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { machineNode, repoRoot } from './pack.js';

// Release rehearsal, step 2: every package, packed as npm would publish it and installed
// into an empty project from the tarballs (everything else from the registry; the install
// the README's `./pnpmw kiro-learn install` made in a fresh clone, global-setup.ts): the CLI,
// retrieval embedded without the collector, the MCP server, and a user's first hour
// (start, init, hooks, search, stop) all work from there. The install and the collector run
// on Node 22 (the collector needs it); the hooks and the MCP server run on the machine's own
// Node (`machineNode()`: Node 20 on a machine whose default Node is 20), as users run them.
let project: string;
beforeAll(() => {
  project = inject('fresh').installed;
});

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

const bin = (name: string) => join(project, 'node_modules', '.bin', name);

describe('installed from the tarballs', () => {
  it('kiro-learn --help lists the commands and --version matches the package', () => {
    const help = execFileSync(bin('kiro-learn'), ['--help'], { encoding: 'utf8' });
    for (const command of ['start', 'stop', 'status', 'init', 'doctor', 'search', 'demo']) {
      expect(help).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    const { version } = JSON.parse(
      readFileSync(join(repoRoot, 'apps/collector/package.json'), 'utf8'),
    ) as { version: string };
    const versions = execFileSync(bin('kiro-learn'), ['--version'], {
      encoding: 'utf8',
      env: { ...process.env, KIRO_LEARN_HOME: join(project, 'home-version') },
    }).split('\n');
    expect(versions[0]).toBe(version);
    expect(versions[1]).toBe('hook scripts: none installed (kiro-learn init installs them)');
  });

  it('the collector starts from the install, serves the viewer, and stops', async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      KIRO_LEARN_HOME: join(project, 'home'),
      KIRO_LEARN_PORT: String(port),
    };
    const started = spawnSync(bin('kiro-learn'), ['start'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.stderr).toBe('');
    expect(started.status).toBe(0);
    const url = /at (http:\/\/\S+)/.exec(started.stdout)?.[1];
    expect(url).toBeDefined();
    try {
      const page = spawnSync('curl', ['-sf', `${url}/ui/`], { encoding: 'utf8' });
      expect(page.stdout).toMatch(/<html/i);
      // The health screen runs as a read model in the storage reader's worker thread, which
      // imports the installed viewer module: this proves the installed layout resolves it.
      const health = spawnSync('curl', ['-sf', `${url}/ui/api/health`], { encoding: 'utf8' });
      expect(JSON.parse(health.stdout)).toMatchObject({ events: 0, latency: expect.any(Array) });
    } finally {
      expect(spawnSync(bin('kiro-learn'), ['stop'], { env, encoding: 'utf8' }).status).toBe(0);
    }
  });

  it('retrieval embeds in another tool: open a database file and query it without the collector', () => {
    writeFileSync(
      join(project, 'embed.mjs'),
      `import { createRetriever } from '@kiro-learn/retrieval';
import { buildNamespace, newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
const storage = await openSqliteStorage({ path: new URL('./embed/db.sqlite', import.meta.url).pathname });
const namespace = buildNamespace('alice', 'payments-api');
await storage.putRecord({ record_id: newRecordId(), namespace, strategy: 'test', title: 'Stripe webhooks need the raw body',
  summary: 'express.json() broke signature verification; use express.raw().', facts: [], concepts: ['stripe'],
  files_touched: ['src/webhooks/stripe.ts'], observation_type: 'discovery', source_event_ids: [newEventId()], created_at: new Date().toISOString() });
const retriever = createRetriever({ storage, log: false, budgetMs: 60_000 });
const result = await retriever.retrieve({ namespace, prompt: 'why do stripe webhook signatures fail?' });
process.stdout.write(result.context);
await storage.close();
`,
    );
    const out = execFileSync(process.execPath, ['embed.mjs'], { cwd: project, encoding: 'utf8' });
    expect(out).toBe(
      '## Prior observations from kiro-learn\n\n### Stripe webhooks need the raw body\n\nexpress.json() broke signature verification; use express.raw().\n',
    );
  });

  it("the MCP server starts from the install on the machine's Node and lists its tools", async () => {
    const client = new Client({ name: 'release', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: machineNode(),
        args: [bin('kiro-learn-mcp')],
        cwd: project,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'forget_memory',
        'get_event',
        'get_memories',
        'save_observation',
        'save_session_summary',
        'search_memory',
        'timeline',
        'undo_supersession',
      ]);
    } finally {
      await client.close();
    }
  });

  it("the hook script runs from the install on the machine's Node and never breaks the agent", () => {
    const result = spawnSync(machineNode(), [bin('kiro-learn-shim'), 'kiro'], {
      input: 'not json',
      env: { ...process.env, KIRO_LEARN_HOME: join(project, 'home2'), KIRO_LEARN_PORT: '9' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^\[kiro-learn\] /);
  });
});

describe("a user's first hour, from the install", () => {
  it('start, init, hooks record a turn, the MCP server saves, search finds it, stop', async () => {
    const port = await freePort();
    const home = join(project, 'first-hour');
    const repo = join(home, 'src', 'payments-api');
    mkdirSync(repo, { recursive: true });
    writeFileSync(join(repo, 'package.json'), '{"name":"payments-api"}\n');
    const env = {
      ...process.env,
      HOME: home,
      KIRO_LEARN_HOME: join(home, '.kiro-learn'),
      KIRO_LEARN_PORT: String(port),
      KIRO_LEARN_EXTRACTOR: 'builtin',
    };
    const kiroLearn = (args: string[]) =>
      spawnSync(bin('kiro-learn'), args, { cwd: repo, env, encoding: 'utf8', timeout: 60_000 });

    expect(kiroLearn(['start']).status).toBe(0);
    try {
      const init = kiroLearn(['init', '--surface', 'claude-code', '--yes']);
      expect(init.stderr).toBe('');
      expect(init.status).toBe(0);
      // The hooks init wrote, run as Claude Code runs them: through the shell, JSON on stdin.
      const settings = JSON.parse(
        readFileSync(join(repo, '.claude', 'settings.local.json'), 'utf8'),
      );
      const command = (event: string): string => settings.hooks[event][0].hooks[0].command;
      const hook = (event: string, fields: object) =>
        spawnSync('sh', ['-c', command(event)], {
          cwd: repo,
          env,
          encoding: 'utf8',
          input: JSON.stringify({
            session_id: 'first-hour',
            cwd: repo,
            hook_event_name: event,
            ...fields,
          }),
        });
      const prompt = hook('UserPromptSubmit', {
        prompt: 'Stripe webhook signatures fail after the deploy',
      });
      expect(prompt.status).toBe(0);
      expect(
        hook('Stop', { last_assistant_message: 'Switched the route to express.raw().' }).status,
      ).toBe(0);

      // The agent saves what it learned through the MCP server init registered, started as
      // the agent starts it.
      const mcp = JSON.parse(readFileSync(join(repo, '.mcp.json'), 'utf8')).mcpServers[
        'kiro-learn'
      ];
      const client = new Client({ name: 'first-hour', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: mcp.command,
          args: mcp.args,
          cwd: repo,
          env,
          stderr: 'pipe',
        }),
      );
      try {
        const saved = await client.callTool({
          name: 'save_observation',
          arguments: {
            title: 'Stripe webhooks need the raw request body',
            summary: 'express.json() broke signature verification; the route uses express.raw().',
            observation_type: 'discovery',
          },
        });
        expect(saved.isError).toBeFalsy();
      } finally {
        await client.close();
      }

      const search = kiroLearn(['search', 'stripe webhook raw body', '--json']);
      expect(search.status).toBe(0);
      expect(search.stdout).toContain('Stripe webhooks need the raw request body');
      // And the next prompt gets it back as context.
      const next = hook('UserPromptSubmit', { prompt: 'why do stripe webhook signatures fail?' });
      expect(next.status).toBe(0);
      expect(next.stdout).toContain('Stripe webhooks need the raw request body');
    } finally {
      expect(kiroLearn(['stop']).status).toBe(0);
    }
  });
});
