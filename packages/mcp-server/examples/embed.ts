// Embedding the kiro-learn MCP server in another process, on an in-memory transport, and
// calling a tool with the official client. Agents normally just start the `kiro-learn-mcp` bin.

import { buildSessionSummary, createMcpServer, resolveConfig } from '@kiro-learn/mcp-server';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';

const server = createMcpServer(resolveConfig({ projectDir: process.cwd(), timeoutMs: 2000 }));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);

const client = new Client({ name: 'example', version: '1.0.0' });
await client.connect(clientSide);
const result = await client.callTool({
  name: 'search_memory',
  arguments: { query: 'login flake' },
});
// With no collector running this is an isError result telling the model to run `kiro-learn start`.
console.log(result.isError ? 'error:' : 'ok:', result.content);

// The summary layout save_session_summary stores, without a collector:
const { title, summary } = buildSessionSummary({
  request: 'Fix the flaky login test',
  investigated: 'The retry loop in src/auth.ts',
  learned: 'The token cache expired after 30 s',
  completed: 'Raised the TTL',
  next_steps: 'Remove the retry loop',
  files_read: ['src/auth.ts'],
  files_modified: ['src/cache.ts'],
});
console.log(title, summary.length);
await client.close();
