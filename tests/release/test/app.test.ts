import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { packAll, repoRoot, scratchProject } from './pack.js';

// Every package, packed as npm would publish it and installed into an empty project from
// the tarballs (everything else from the registry): the CLI, retrieval embedded without the
// collector, and the MCP server all work from there.
const PACKAGES = [
  'schema',
  'storage',
  'buffer',
  'extractor',
  'retrieval',
  'embeddings',
  'shims',
  'mcp-server',
].map((name) => `packages/${name}`);
let project: string;
beforeAll(() => {
  project = scratchProject(packAll([...PACKAGES, 'apps/collector']));
}, 600_000);

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
    expect(execFileSync(bin('kiro-learn'), ['--version'], { encoding: 'utf8' }).trim()).toBe(
      version,
    );
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
const retriever = createRetriever({ storage, log: false });
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

  it('the MCP server starts from the install and lists its tools', async () => {
    const client = new Client({ name: 'release', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: bin('kiro-learn-mcp'),
        args: [],
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
      ]);
    } finally {
      await client.close();
    }
  });

  it('the hook script runs from the install and never breaks the agent', () => {
    const result = spawnSync(bin('kiro-learn-shim'), ['kiro'], {
      input: 'not json',
      env: { ...process.env, KIRO_LEARN_HOME: join(project, 'home2'), KIRO_LEARN_PORT: '9' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^\[kiro-learn\] /);
  });
});
