// `pnpm bench`: start-up and per-call cost of kiro-learn-mcp, each printed beside a baseline
// measured in the same run (bare `node -e ''` start-up; a bare HTTP echo round trip).
// Asserts nothing. Needs dist/ of this package and of the collector (turbo builds them).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from '../test/build.ts';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const COLLECTOR = fileURLToPath(new URL('../../../apps/collector/dist/cli.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'kl-mcp-bench-'));

function stats(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  console.log(
    `${label.padEnd(44)} median ${at(0.5).toFixed(2).padStart(8)} ms   p99 ${at(0.99).toFixed(2).padStart(8)} ms   (n=${samples.length})`,
  );
}

async function time(n: number, body: () => Promise<unknown> | unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await body();
    samples.push(performance.now() - start);
  }
  return samples;
}

const listen = (server: ReturnType<typeof createServer>) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );

async function connect(port: number): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI],
      cwd: home,
      env: {
        PATH: process.env['PATH'] ?? '',
        KIRO_LEARN_HOME: home,
        KIRO_LEARN_PORT: String(port),
      },
    }),
  );
  return client;
}

// Start-up: spawn → initialize → tools/list answered.
stats(
  "baseline: node -e '' start-up",
  await time(20, () => spawnSync(process.execPath, ['-e', ''])),
);
stats(
  'kiro-learn-mcp start-up to tools/list',
  await time(20, async () => {
    const client = await connect(1);
    await client.listTools();
    await client.close();
  }),
);

// Per call: a bare HTTP echo, the collector's search directly, the same search through MCP.
const echo = createServer((_req, res) => res.end('[]'));
const echoPort = await listen(echo);
stats(
  'baseline: bare HTTP echo round trip',
  await time(300, async () => (await fetch(`http://127.0.0.1:${echoPort}/`)).text()),
);
echo.close();

build('kiro-learn');
const probe = createServer();
const port = await listen(probe);
await new Promise((resolve) => probe.close(resolve));
const collector = spawn(process.execPath, [COLLECTOR, 'start', '--foreground'], {
  env: { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: String(port) },
  stdio: 'ignore',
});
for (let ready = false; !ready; ) {
  ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
}
const client = await connect(port);
for (let i = 0; i < 200; i++) {
  await client.callTool({
    name: 'save_observation',
    arguments: {
      title: `Observation ${i} about the token cache`,
      summary: `cache detail number ${i}`,
      observation_type: 'discovery',
    },
  });
}
const { projectIdentity } = await import('@kiro-learn/schema/node');
const ns = encodeURIComponent(projectIdentity(home).namespace);
stats(
  'collector GET /v1/memories/search (200 records)',
  await time(300, async () =>
    (
      await fetch(
        `http://127.0.0.1:${port}/v1/memories/search?namespace=${ns}&query=token+cache&limit=10`,
      )
    ).text(),
  ),
);
stats(
  'search_memory through MCP (200 records)',
  await time(300, () =>
    client.callTool({ name: 'search_memory', arguments: { query: 'token cache' } }),
  ),
);
await client.close();
collector.kill('SIGTERM');
await new Promise((resolve) => collector.once('exit', resolve));
rmSync(home, { recursive: true, force: true });
