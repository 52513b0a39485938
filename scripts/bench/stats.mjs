// Shared by every benchmark: percentiles and the machine's own baselines, so figures are
// read as ratios (absolute times do not hold across noisy machines).
import { spawnSync } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
  };
}

export const fmt = (ms) => `${ms.toFixed(ms < 1 ? 3 : ms < 10 ? 2 : 1)} ms`;

/** Median and p99 wall time of `node -e ''` with this Node binary. */
export function nodeStartupBaseline(runs = 20) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

/** Round-trip latency of a bare node:http echo server on loopback, keep-alive. */
export async function httpEchoBaseline(requests = 2000) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    await new Promise((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('{}');
    });
    samples.push(performance.now() - start);
  }
  agent.destroy();
  server.close();
  return summarize(samples);
}

export function environment() {
  return `node ${process.version}, ${process.platform}/${process.arch}, NODE_EXTRA_CA_CERTS=${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'}`;
}
