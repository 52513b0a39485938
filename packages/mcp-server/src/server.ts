import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Event, newEventId, newUlid, parseNamespace } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { McpServer } from '@modelcontextprotocol/server';
import { type StdioServerHandle, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createCollectorClient } from './collector.js';
import type { McpServerConfig } from './config.js';
import { registerTools, type ToolContext } from './tools.js';

/** The package version, reported to clients and stamped on note events. */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

/** How long to wait for a client's answer to roots/list before falling back to projectDir. */
const ROOTS_TIMEOUT_MS = 2000;

/** A configured MCP server with every kiro-learn tool registered; connect it to a transport. */
export function createMcpServer(config: Readonly<McpServerConfig>): McpServer {
  const server = new McpServer(
    { name: 'kiro-learn', title: 'kiro-learn memory', version: VERSION },
    {
      instructions:
        "kiro-learn is this project's memory across sessions. Search it (search_memory) before re-investigating something; save what a future session should know (save_observation, and save_session_summary at the end of a substantial turn).",
    },
  );
  const client = createCollectorClient({
    baseUrl: config.collectorUrl,
    timeoutMs: config.timeoutMs,
    ...(config.token ? { token: config.token } : {}),
  });
  // One session per server process: an agent starts one server per conversation.
  const sessionId = `mcp-${newUlid()}`;
  let project: Promise<{ dir: string; namespace: string }> | undefined;

  /** The hooks' own project-identity function, so tools and hooks share one namespace. */
  async function resolveProject() {
    const dir = (await announcedRoot()) ?? config.projectDir;
    return { dir, namespace: projectIdentity(dir).namespace };
  }

  /** The first `file:` root the client announces, when it supports roots and answers in time. */
  async function announcedRoot(): Promise<string | undefined> {
    if (!server.server.getClientCapabilities()?.roots) return undefined;
    try {
      const { roots } = await server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      const root = roots.find((candidate) => candidate.uri.startsWith('file:'));
      return root ? fileURLToPath(root.uri) : undefined;
    } catch {
      return undefined;
    }
  }

  server.server.setNotificationHandler('notifications/roots/list_changed', () => {
    project = undefined;
  });

  const context: ToolContext = {
    client,
    project: () => {
      project ??= resolveProject();
      return project;
    },
    async note(tool, args) {
      const { dir, namespace } = await context.project();
      const clientName = server.server.getClientVersion()?.name;
      const event: Event = {
        event_id: newEventId(),
        session_id: sessionId,
        actor_id: parseNamespace(namespace)?.actor ?? 'unknown',
        namespace,
        schema_version: 1,
        kind: 'note',
        body: { type: 'json', data: { tool, arguments: args } },
        valid_time: new Date().toISOString(),
        source: {
          surface: 'mcp',
          version: VERSION,
          client_id: (clientName || 'kiro-learn-mcp').slice(0, 128),
          project_path: dir,
        },
      };
      return (await client.postEvent(event)).event_id;
    },
  };
  registerTools(server, context);
  return server;
}

/**
 * Serves `config` over this process's stdin and stdout until the client disconnects, to
 * clients of every protocol revision: 2026-07-28 (`server/discover`) and the 2025 ones back
 * to 2024-11-05 (`initialize`).
 */
export async function runStdioServer(
  config: Readonly<McpServerConfig>,
): Promise<StdioServerHandle> {
  return serveStdio(() => createMcpServer(config));
}
