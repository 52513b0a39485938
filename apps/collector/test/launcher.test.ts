// The MCP launcher `kiro-learn init` writes: it runs on the Node the hook launcher runs on
// (a stable Node on the PATH, never a checkout's private `.tools/` one while another
// qualifies), with NODE_EXTRA_CA_CERTS moved aside on Node < 22, and it starts a working
// MCP server. tests/release covers the other half: an install that outlives its checkout.
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { caCertsAside } from '@kiro-learn/shims';
import { cli, envFor, tempHome } from '@kiro-learn/test-harness';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';

const root = realpathSync(tempHome());
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A second, distinct Node binary (a hard link, or a copy across file systems). */
function stableNode(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'node');
  try {
    linkSync(process.execPath, path);
  } catch {
    copyFileSync(process.execPath, path);
  }
  return path;
}

describe('the MCP launcher init writes', () => {
  it("names the hook launcher's Node, never the checkout's private one, and serves MCP", async () => {
    // PATH as under ./pnpmw: the checkout's private Node first, a stable one after it.
    const tools = join(root, 'checkout', '.tools', 'node_modules', '.bin');
    mkdirSync(tools, { recursive: true });
    stableNode(tools);
    const stable = stableNode(join(root, 'usr', 'bin'));
    const project = join(root, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"launcher-demo"}\n');
    const env = {
      ...envFor(join(root, 'data'), 9),
      HOME: root,
      PATH: [tools, join(root, 'usr', 'bin')].join(':'),
    };
    const init = cli(['init', '--surface', 'claude-code', '--yes'], env, project);
    expect(init.code, init.stderr).toBe(0);

    const bin = join(root, 'data', 'bin');
    const hookNode = /^exec ('[^']*'|\S+) "\$s"/m.exec(
      readFileSync(join(bin, 'kiro-learn-hook'), 'utf8'),
    )?.[1];
    const mcpLauncher = readFileSync(join(bin, 'kiro-learn-mcp'), 'utf8');
    const mcpNode = /^exec ('[^']*'|\S+) /m.exec(mcpLauncher)?.[1];
    expect(hookNode).toBe(stable);
    expect(mcpNode).toBe(hookNode);
    expect(mcpLauncher).not.toContain('.tools');

    const client = new Client({ name: 'launcher-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: join(bin, 'kiro-learn-mcp'),
        args: [],
        cwd: project,
        env: env as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools: served } = await client.listTools();
      expect(served.map((t) => t.name)).toContain('search_memory');
    } finally {
      await client.close();
    }
  });

  it('moves NODE_EXTRA_CA_CERTS aside on a Node older than 22, as the hook launcher does', () => {
    const aside = caCertsAside('20.16.0');
    expect(aside).toContain('unset NODE_EXTRA_CA_CERTS');
    expect(aside).toContain('KIRO_LEARN_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS');
    expect(caCertsAside('22.12.0')).toBe('');
  });
});
