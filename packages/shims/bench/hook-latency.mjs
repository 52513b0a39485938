// Wall time of one hook process (spawn to exit) beside a bare `node -e ''` measured in the
// same run, interleaved so machine load hits every series alike. Prints; asserts nothing.
// Needs the collector built (pnpm build) and the hook bundles (the bench script builds them).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, '..', '..', 'apps', 'collector', 'dist', 'cli.js');
const shim = join(root, 'dist', 'bin', 'claude-code.cjs');
const runs = Number(process.env.BENCH_RUNS ?? 60);
if (!existsSync(cli) || !existsSync(shim)) {
  console.error(
    'build first: pnpm build (needs apps/collector/dist/cli.js and dist/bin/claude-code.cjs)',
  );
  process.exit(1);
}

const base = mkdtempSync(join(tmpdir(), 'kl-bench-'));
const project = join(base, 'project');
mkdirSync(project);
writeFileSync(join(project, 'package.json'), '{}');
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const env = {
  ...process.env,
  HOME: base,
  KIRO_LEARN_HOME: join(base, 'data'),
  KIRO_LEARN_PORT: String(port),
  KIRO_LEARN_AUTOSTART: '0',
};
const collector = spawn(process.execPath, [cli, 'start', '--foreground'], { env, stdio: 'ignore' });
for (let i = 0; ; i++) {
  const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  if (i > 400) throw new Error('collector did not start');
  await new Promise((r) => setTimeout(r, 50));
}

// The hook command `kiro-learn init` installs, run as the agent runs it (`sh -c`): the
// launcher in the data dir, on the Node init chose. Its own data dir, so the bundles and
// launcher are this checkout's.
const installHome = join(base, 'data-installed');
const installed = spawnSync(process.execPath, [cli, 'init', '--surface', 'claude-code', '--yes'], {
  cwd: project,
  env: { ...env, KIRO_LEARN_HOME: installHome },
  encoding: 'utf8',
});
if (installed.status !== 0) throw new Error(`kiro-learn init failed: ${installed.stderr}`);
const installedCommand = JSON.parse(
  readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8'),
).hooks.UserPromptSubmit[0].hooks[0].command;
const launcher = readFileSync(join(installHome, 'bin', 'kiro-learn-hook'), 'utf8');
const quoted = /^exec ('(?:[^']|'\\'')*'|\S+) "\$s"/m.exec(launcher)[1];
const hookNode = quoted.startsWith("'") ? quoted.slice(1, -1) : quoted;
const hookNodeVersion = spawnSync(hookNode, ['-p', 'process.versions.node'], {
  encoding: 'utf8',
}).stdout.trim();
// The installed hook posts to the collector of the other series (KIRO_LEARN_PORT), keeping its own data dir.
const installedEnv = { ...env, KIRO_LEARN_HOME: installHome };

const payload = (extra) => JSON.stringify({ session_id: 'bench', cwd: project, ...extra });
const prompt = payload({
  hook_event_name: 'UserPromptSubmit',
  prompt: 'why does the stripe webhook signature check fail after the deploy?',
});
const tool = payload({
  hook_event_name: 'PostToolUse',
  tool_name: 'Read',
  tool_input: { file_path: 'src/a.ts' },
  tool_response: 'x'.repeat(4000),
});
const withoutCa = { ...env };
delete withoutCa.NODE_EXTRA_CA_CERTS;

// What Node itself needs for a hook's job: read stdin, one round trip, exit. The hooks
// write their one request straight onto a node:net socket; node:http is here to show why.
const floor = `const http = require('node:http'); const c = []; process.stdin.on('data', (d) => c.push(d));
process.stdin.on('end', () => http.get({ host: '127.0.0.1', port: ${port}, path: '/healthz', agent: false },
  (r) => { r.resume(); r.on('end', () => process.exit(0)); }));`;
const netFloor = `const net = require('node:net'); const c = []; process.stdin.on('data', (d) => c.push(d));
process.stdin.on('end', () => net.connect(${port}, '127.0.0.1')
  .on('data', () => process.exit(0))
  .write('GET /healthz HTTP/1.1\\r\\nhost: 127.0.0.1:${port}\\r\\nconnection: close\\r\\n\\r\\n'));`;

const series = {
  "bare node -e ''": { args: ['-e', ''], input: '', env },
  [`bare node -e '' (the hooks' Node ${hookNodeVersion})`]: {
    program: hookNode,
    args: ['-e', ''],
    input: '',
    env,
  },
  ...(env.NODE_EXTRA_CA_CERTS
    ? {
        [`bare node -e '' (the hooks' Node, no NODE_EXTRA_CA_CERTS)`]: {
          program: hookNode,
          args: ['-e', ''],
          input: '',
          env: withoutCa,
        },
      }
    : {}),
  'installed prompt hook (sh -c, launcher)': {
    program: '/bin/sh',
    args: ['-c', installedCommand],
    input: prompt,
    env: installedEnv,
  },
  'installed tool hook (sh -c, launcher)': {
    program: '/bin/sh',
    args: ['-c', installedCommand],
    input: tool,
    env: installedEnv,
  },
  'floor: stdin + one node:http request': { args: ['-e', floor], input: tool, env },
  'floor: stdin + one node:net request': { args: ['-e', netFloor], input: tool, env },
  'prompt hook (collector up)': { args: [shim], input: prompt, env },
  'tool hook (collector up)': { args: [shim], input: tool, env },
  'tool hook (collector down)': {
    args: [shim],
    input: tool,
    // Its own data dir: its spool must not be replayed by the hooks of the other series.
    env: { ...env, KIRO_LEARN_PORT: '9', KIRO_LEARN_HOME: join(base, 'data-down') },
  },
  ...(process.env.NODE_EXTRA_CA_CERTS
    ? {
        "bare node -e '' (no NODE_EXTRA_CA_CERTS)": { args: ['-e', ''], input: '', env: withoutCa },
        'tool hook (no NODE_EXTRA_CA_CERTS)': { args: [shim], input: tool, env: withoutCa },
      }
    : {}),
};
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const times = Object.fromEntries(Object.keys(series).map((name) => [name, []]));
for (let i = 0; i < runs + 3; i++) {
  for (const [name, { program, args, input, env: childEnv }] of Object.entries(series)) {
    const start = process.hrtime.bigint();
    const result = spawnSync(program ?? process.execPath, args, {
      input,
      env: childEnv,
      cwd: project,
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
    if (i >= 3) times[name].push(ms); // the first runs warm the disk cache
  }
}
collector.kill('SIGTERM');
await new Promise((r) => collector.once('exit', r));
rmSync(base, { recursive: true, force: true });

const pick = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const bare = pick(times["bare node -e ''"], 0.5);
console.log(`hook latency, spawn to exit, ${runs} runs each, Node ${process.version}`);
console.log(
  `NODE_EXTRA_CA_CERTS=${process.env.NODE_EXTRA_CA_CERTS ?? '(unset)'}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (before: ${loadBefore}), ${availableParallelism()} cores`,
);
for (const [name, list] of Object.entries(times)) {
  const p50 = pick(list, 0.5);
  console.log(
    `${name.padEnd(42)} p50 ${p50.toFixed(1).padStart(6)} ms  p99 ${pick(list, 0.99).toFixed(1).padStart(6)} ms  p50 ${(p50 / bare).toFixed(2)}× bare`,
  );
}
const hookBare = pick(times[`bare node -e '' (the hooks' Node ${hookNodeVersion})`], 0.5);
for (const name of [
  'installed prompt hook (sh -c, launcher)',
  'installed tool hook (sh -c, launcher)',
]) {
  const list = times[name];
  console.log(
    `${name}: p50 ${(pick(list, 0.5) / hookBare).toFixed(2)}×, p99 ${(pick(list, 0.99) / pick(times[`bare node -e '' (the hooks' Node ${hookNodeVersion})`], 0.99)).toFixed(2)}× bare node -e '' of the hooks' Node (${hookNode}, ${hookNodeVersion})`,
  );
}
console.log('target: installed hook p50 ≤ 1.3× bare Node start-up');
