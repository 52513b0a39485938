import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  envFor,
  flood,
  freePort,
  makeEvent,
  removeHomes,
  rssMiB,
  sleep,
  spawnCollector,
  tempHome,
} from './harness.js';

afterEach(removeHomes);

/** Opens /v1/stream on a raw socket and, once the headers arrived, stops reading. */
function pausedClient(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    socket.once('connect', () =>
      socket.write(`GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
    );
    socket.once('data', (chunk) => {
      if (!String(chunk).startsWith('HTTP/1.1 200')) fail(new Error(String(chunk)));
      socket.pause();
      done({ socket, closed });
    });
  });
}

async function metric(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

describe('/v1/stream clients', () => {
  it('a client that stops reading is disconnected; collector memory stays bounded', async () => {
    const home = tempHome();
    const port = await freePort();
    // The embedding model (about 250 MB, loaded in the background) would swamp what is measured.
    const env = { ...envFor(home, port), KIRO_LEARN_SEMANTIC_ENABLED: 'false' };
    const collector = await spawnCollector(env, port);
    try {
      const paused = await pausedClient(port);
      const warm = flood(port, 4);
      while (warm.acked.length < 100) await sleep(10);
      await warm.stop();
      const before = rssMiB(collector.pid);
      let peak = before;
      let dropped = 0;
      // Prompts with retrieval: each puts an event and a retrieval (its 4 KB query) on the stream.
      const prompt = () =>
        makeEvent({ kind: 'prompt', body: { type: 'text', content: 'why '.repeat(1000) } });
      const load = flood(port, 4, prompt, '/v1/events?retrieve=true');
      for (let tick = 0; load.acked.length < 20_000 && dropped === 0; tick++) {
        await sleep(50);
        peak = Math.max(peak, rssMiB(collector.pid));
        if (tick % 10 === 9)
          dropped = await metric(port, 'kiro_learn_stream_clients_dropped_total');
      }
      await load.stop();
      dropped = await metric(port, 'kiro_learn_stream_clients_dropped_total');
      console.log(
        `paused SSE client: RSS ${before} MiB before, peak ${peak} MiB over ${load.acked.length} events; dropped clients ${dropped}`,
      );
      // Reading again, the client gets what its socket held, then finds the connection cut.
      paused.socket.resume();
      await paused.closed;
      expect(dropped).toBe(1);
      // Said once in the log (a warning), never as a stack trace on the collector's terminal.
      expect(collector.output()).not.toContain('stopped reading');
      // Bounded: a paused client used to hold every event since it paused (+490 MB a minute).
      expect(peak - before).toBeLessThan(150);
    } finally {
      await collector.stop();
    }
  });

  it('refuses a stream past the cap with a JSON 503, and a disconnect frees its place', async () => {
    const home = tempHome();
    const port = await freePort();
    const collector = await spawnCollector(envFor(home, port), port);
    const open = (): Promise<{ status: number; body: string; close: () => void }> =>
      new Promise((done, fail) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/v1/stream', agent: false },
          (res) => {
            if (res.statusCode === 200) {
              res.once('data', () => done({ status: 200, body: '', close: () => req.destroy() }));
              return;
            }
            let body = '';
            res.on('data', (d) => {
              body += d;
            });
            res.on('end', () => done({ status: res.statusCode ?? 0, body, close: () => {} }));
          },
        );
        req.on('error', fail);
        req.end();
      });
    try {
      const streams = [];
      for (let i = 0; i < 64; i++) streams.push(await open());
      expect(streams.every((s) => s.status === 200)).toBe(true);
      const refused = await open();
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'too many open streams' });
      streams.pop()!.close();
      await expect.poll(async () => (await open()).status, { timeout: 10_000 }).toBe(200);
      // Readers do not slow ingest down to a crawl: every event still gets its answer.
      const load = flood(port, 4);
      while (load.acked.length < 100) await sleep(10);
      await load.stop();
      for (const s of streams) s.close();
    } finally {
      await collector.stop();
    }
  });
});
