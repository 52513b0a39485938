// Soak benchmark: the real collector (`kiro-learn start --foreground`) under mixed load for
// SOAK_SECONDS (default 60): keep-alive clients posting tool uses, prompts with inline
// retrieval and turn ends (so extraction runs), SSE readers, one SSE client that stopped
// reading, and the viewer's projects and health screens polled. Prints the collector's RSS
// over time, ingest latency (median, p99) beside the machine's own baselines measured in
// the same run, the ingest rate with and without 60 stream readers, the SIGTERM shutdown
// time, and how many acknowledged events the restarted collector does not have (must be 0).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import { CLI, freePort, post, sleep } from '@kiro-learn/test-harness';
import {
  environment,
  fmt,
  httpEchoBaseline,
  nodeStartupBaseline,
  summarize,
} from '../../../scripts/bench/stats.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const NS = '/actor/dev/project/soak/';

function rssMiB(pid) {
  const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kib / 1024);
}

function event(i) {
  const kind = i % 50 === 49 ? 'session_summary' : i % 10 === 0 ? 'prompt' : 'tool_use';
  return {
    event_id: newEventId(),
    session_id: `soak-${i % 4}`,
    actor_id: 'dev',
    namespace: NS,
    schema_version: 1,
    kind,
    body:
      kind === 'tool_use'
        ? {
            type: 'json',
            data: {
              tool_name: 'fs_write',
              tool_input: {
                path: `src/mod${i % 97}.ts`,
                content: 'export const x = 1;\n'.repeat(20),
              },
              tool_response: { success: true },
            },
          }
        : { type: 'text', content: `why does the webhook test ${i} fail after the migration?` },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'soak' },
  };
}

function get(agent, port, path) {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', () => done(0));
    req.end();
  });
}

async function startCollector(env, port) {
  const child = spawn(process.execPath, [CLI, 'start', '--foreground'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  const agent = new Agent({ keepAlive: false });
  while ((await get(agent, port, '/healthz')) !== 200) {
    if (child.exitCode !== null) throw new Error('the collector exited at start');
    await sleep(50);
  }
  return { child, pid: child.pid, exited };
}

/** Posts from `clients` keep-alive clients until stopped; latencies and acknowledged ids. */
function load(port, clients) {
  const acked = [];
  const latencies = [];
  let running = true;
  let n = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const e = event(n++);
      const started = performance.now();
      const path = e.kind === 'prompt' ? '/v1/events?retrieve=true' : '/v1/events';
      const status = await post(agent, port, path, e);
      latencies.push(performance.now() - started);
      if (status === 200) acked.push(e.event_id);
      else if (status === 0) await sleep(20);
    }
  });
  return {
    acked,
    latencies,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** `count` SSE clients that read everything; returns their closer. */
function readers(port, count) {
  const requests = Array.from({ length: count }, () => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/stream', agent: false });
    req.on('response', (res) => res.resume());
    req.on('error', () => {});
    req.end();
    return req;
  });
  return () => {
    for (const req of requests) req.destroy();
  };
}

/** An SSE client that reads the headers and then nothing. */
function pausedReader(port) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.once('connect', () =>
    socket.write(`GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
  );
  socket.once('data', () => socket.pause());
  return () => socket.destroy();
}

async function missing(port, ids) {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let gone = 0;
  for (let i = 0; i < ids.length; i += 8) {
    const statuses = await Promise.all(
      ids.slice(i, i + 8).map((id) => get(agent, port, `/v1/events/${id}`)),
    );
    gone += statuses.filter((s) => s !== 200).length;
  }
  agent.destroy();
  return gone;
}

async function rate(port, seconds) {
  const l = load(port, CLIENTS);
  await sleep(seconds * 1000);
  await l.stop();
  return l.acked.length / seconds;
}

const home = mkdtempSync(join(tmpdir(), 'kl-soak-'));
const port = await freePort();
const env = {
  ...process.env,
  KIRO_LEARN_HOME: home,
  KIRO_LEARN_PORT: String(port),
  KIRO_LEARN_EXTRACTOR: 'builtin',
};
try {
  console.log(`soak: ${SECONDS} s, ${CLIENTS} clients; ${environment()}`);
  const startup = nodeStartupBaseline();
  const echo = await httpEchoBaseline();
  console.log(`baseline: node -e '' p50 ${fmt(startup.p50)} p99 ${fmt(startup.p99)}`);
  console.log(`baseline: bare HTTP echo p50 ${fmt(echo.p50)} p99 ${fmt(echo.p99)}`);

  const collector = await startCollector(env, port);
  console.log(`collector RSS at start: ${rssMiB(collector.pid)} MiB`);

  const quiet = await rate(port, 5);
  const closeMany = readers(port, 60);
  await sleep(500);
  const busy = await rate(port, 5);
  closeMany();
  console.log(
    `ingest rate: ${Math.round(quiet)} events/s without stream readers, ${Math.round(busy)} events/s with 60 readers`,
  );

  const closeReaders = readers(port, 4);
  const closePaused = pausedReader(port);
  const viewer = new Agent({ keepAlive: true, maxSockets: 2 });
  let polling = true;
  const poll = (async () => {
    while (polling) {
      await get(viewer, port, '/ui/api/projects');
      await get(viewer, port, '/ui/api/health');
      await sleep(200);
    }
  })();
  const soak = load(port, CLIENTS);
  const started = Date.now();
  console.log('   t (s)   RSS (MiB)   events acknowledged');
  const rss = [];
  while (Date.now() - started < SECONDS * 1000) {
    await sleep(Math.min(5000, SECONDS * 1000));
    const now = rssMiB(collector.pid);
    rss.push(now);
    console.log(
      `${String(Math.round((Date.now() - started) / 1000)).padStart(8)}${String(now).padStart(12)}${String(soak.acked.length).padStart(22)}`,
    );
  }
  await soak.stop();
  polling = false;
  await poll;
  viewer.destroy();
  closeReaders();
  closePaused();
  const latency = summarize(soak.latencies);
  console.log(
    `ingest latency under soak: p50 ${fmt(latency.p50)} p99 ${fmt(latency.p99)} (${latency.n} requests; bare echo p50 ${fmt(echo.p50)})`,
  );
  console.log(
    `RSS: min ${Math.min(...rss)} MiB, max ${Math.max(...rss)} MiB, last ${rss.at(-1)} MiB`,
  );

  const stopping = performance.now();
  collector.child.kill('SIGTERM');
  const code = await collector.exited;
  console.log(
    `shutdown after SIGTERM: ${Math.round(performance.now() - stopping)} ms (exit code ${code})`,
  );

  const again = await startCollector(env, port);
  const lost = await missing(port, soak.acked);
  console.log(`events lost: ${lost} of ${soak.acked.length} acknowledged`);
  again.child.kill('SIGTERM');
  await again.exited;
} finally {
  rmSync(home, { recursive: true, force: true });
}
