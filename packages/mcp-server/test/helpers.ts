import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The bin under test. */
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** The tools kiro-learn-mcp lists, by name. */
export const TOOL_NAMES = [
  'forget_memory',
  'get_event',
  'get_memories',
  'save_observation',
  'save_session_summary',
  'search_memory',
  'timeline',
  'undo_supersession',
];

/** The smallest valid `save_session_summary` arguments: a letter a field, no files. */
export const MINIMAL_SUMMARY = {
  request: 'r',
  investigated: 'i',
  learned: 'l',
  completed: 'c',
  next_steps: 'n',
  files_read: [],
  files_modified: [],
};

/** A fresh directory (real path, so it compares equal to what child processes see). */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Which protocol era the client speaks: 2025 revisions (`initialize`) or 2026-07-28. */
export type Era = 'legacy' | 'modern';

export interface Connected {
  client: Client;
  /** Calls a tool and returns its result, with the first text content pulled out. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { text: string }>;
  close(): Promise<void>;
}

/** Starts the real server process and connects the official MCP client to it over stdio. */
export async function connect(options: {
  cwd: string;
  env: Record<string, string>;
  args?: string[];
  roots?: string[];
  /** Default legacy, the official client's own default. */
  era?: Era;
}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...(options.args ?? [])],
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...options.env },
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'kiro-learn-test', version: '1.0.0' },
    {
      capabilities: options.roots ? { roots: { listChanged: true } } : {},
      ...(options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (options.roots) {
    const roots = options.roots.map((dir) => ({ uri: `file://${dir}`, name: dir }));
    client.setRequestHandler('roots/list', () => ({ roots }));
  }
  await client.connect(transport);
  return {
    client,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const first = result.content[0];
      return { ...result, text: first?.type === 'text' ? first.text : '' };
    },
    close: () => client.close(),
  };
}
