// Clients of every generation against the real server and collector: the official v2 client
// on the 2025 protocol revisions (its default) and on 2026-07-28, and the v1 client of the
// maintenance line (@modelcontextprotocol/sdk), which agents built on it still use. Each
// saves a record and finds it again, with structured results it validates itself.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from './build.ts';
import { type RunningCollector, startCollector } from './collector.ts';
import { CLI, connect, type Era, TOOL_NAMES, tempDir } from './helpers.ts';

const home = tempDir('kl-mcp-clients-home-');
const project = tempDir('kl-mcp-clients-project-');
let collector: RunningCollector;
let env: Record<string, string>;

beforeAll(async () => {
  build('kiro-learn');
  collector = await startCollector(home.path);
  env = { KIRO_LEARN_HOME: home.path, KIRO_LEARN_PORT: String(collector.port) };
}, 120_000);

afterAll(async () => {
  await collector?.stop();
  home.remove();
  project.remove();
});

const TOOLS = TOOL_NAMES;

/** What every client must be able to do: list, save, search, with structured answers. */
async function roundTrip(
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  tag: string,
) {
  const saved = (await call('save_observation', {
    title: `Release notes live in CHANGELOG.md (${tag})`,
    summary: `Changesets write CHANGELOG.md per package; found by the ${tag} client.`,
    observation_type: 'discovery',
  })) as { structuredContent: { record_id: string } };
  expect(saved.structuredContent.record_id).toMatch(/^mr_/);
  const found = (await call('search_memory', { query: `changelog ${tag}` })) as {
    structuredContent: { records: Array<{ record_id: string }> };
  };
  expect(found.structuredContent.records.map((r) => r.record_id)).toContain(
    saved.structuredContent.record_id,
  );
}

describe('MCP clients of each generation', () => {
  it.each<[Era, string]>([
    ['legacy', '2025-11-25'],
    ['modern', '2026-07-28'],
  ])('the official v2 client on the %s era works with every tool', async (era, version) => {
    const mcp = await connect({ cwd: project.path, env, era });
    try {
      expect(mcp.client.getProtocolEra()).toBe(era);
      expect(mcp.client.getNegotiatedProtocolVersion()).toBe(version);
      const { tools } = await mcp.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      await roundTrip((name, args) => mcp.client.callTool({ name, arguments: args }), era);
    } finally {
      await mcp.close();
    }
  });

  it('the v1 client (@modelcontextprotocol/sdk) works with every tool', async () => {
    const client = new ClientV1({ name: 'kiro-learn-test-v1', version: '1.0.0' });
    await client.connect(
      new StdioV1({
        command: process.execPath,
        args: [CLI],
        cwd: project.path,
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      await roundTrip((name, args) => client.callTool({ name, arguments: args }), 'v1');
    } finally {
      await client.close();
    }
  });
});
