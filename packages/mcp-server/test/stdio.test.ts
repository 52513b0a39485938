// The bin over stdio with the official MCP client, no collector running: the tool list,
// validation errors and the "collector down" answer, none of which needs a collector.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI,
  type Connected,
  connect,
  freePort,
  MINIMAL_SUMMARY,
  TOOL_NAMES,
  tempDir,
} from './helpers.ts';

const home = tempDir('kl-mcp-home-');
let port: number;
let mcp: Connected;

beforeAll(async () => {
  port = await freePort();
  mcp = await connect({
    cwd: home.path,
    env: { KIRO_LEARN_HOME: home.path, KIRO_LEARN_PORT: String(port) },
  });
});

afterAll(async () => {
  await mcp?.close();
  home.remove();
});

describe('kiro-learn-mcp over stdio', () => {
  it('lists the eight tools, read-only ones annotated as such', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(TOOL_NAMES);
    for (const name of ['search_memory', 'get_memories', 'timeline', 'get_event']) {
      expect(byName[name]?.annotations?.readOnlyHint).toBe(true);
    }
    expect(byName['forget_memory']?.annotations?.destructiveHint).toBe(true);
    expect(byName['save_session_summary']?.description).toMatch(/end of a substantial turn/);
    expect(byName['search_memory']?.inputSchema.required).toEqual(['query']);
  });

  it('answers "collector down" as an isError result telling the model how to fix it', async () => {
    const result = await mcp.call('search_memory', { query: 'login' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `the kiro-learn collector is not running at http://127.0.0.1:${port}: start it with \`kiro-learn start\``,
    );
    const save = await mcp.call('save_observation', {
      title: 't',
      summary: 's',
      observation_type: 'decision',
    });
    expect(save.isError).toBe(true);
    expect(save.text).toMatch(/not running .*kiro-learn start/);
  });

  it('returns invalid arguments as isError results naming the field', async () => {
    const missing = await mcp.call('search_memory', {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/query must be a string/);
    const blank = await mcp.call('save_session_summary', { ...MINIMAL_SUMMARY, request: ' ' });
    expect(blank.text).toMatch(/request must not be blank/);
    const oversize = await mcp.call('search_memory', { query: 'q', limit: 1000 });
    expect(oversize.text).toMatch(/limit must be at most 100/);
    const wrongType = await mcp.call('get_memories', { ids: 'mr_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(wrongType.text).toMatch(/ids must be an array of record ids/);
  });
});

describe('older MCP clients', () => {
  it('negotiate protocol version 2024-11-05 and can list tools', async () => {
    const child = spawn(process.execPath, [CLI], {
      cwd: home.path,
      env: { ...process.env, KIRO_LEARN_HOME: home.path, KIRO_LEARN_PORT: String(port) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const replies: Record<string, unknown>[] = [];
    let buffered = '';
    const waitFor = (id: number) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const check = () => {
          const reply = replies.find((message) => message['id'] === id);
          if (reply) resolve(reply);
          else child.stdout.once('data', check);
        };
        check();
      });
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) replies.push(JSON.parse(line));
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2024-11-05',
        capabilities: {},
        clientInfo: { name: 'kiro', version: '0.9' },
      },
    });
    const init = (await waitFor(1)) as { result: { protocolVersion: string } };
    expect(init.result.protocolVersion).toBe('2024-11-05');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const list = (await waitFor(2)) as { result: { tools: unknown[] } };
    expect(list.result.tools).toHaveLength(8);
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  });
});
