/**
 * probe(): what the CLI concludes from /healthz. A collector slow to answer (a loaded
 * machine) must not be called "not running"; nothing listening must be said at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectorAddress } from '@kiro-learn/schema/node';
import { afterEach, describe, expect, it } from 'vitest';
import { probe } from './client.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A /healthz that answers after `delayMs` (never, when undefined). */
async function health(delayMs: number | undefined): Promise<number> {
  const server = createServer((_req, res) => {
    if (delayMs === undefined) return;
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', pid: 4242, version: '0.0.0-test' }));
    }, delayMs);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const at = (port: number) =>
  collectorAddress({ KIRO_LEARN_PORT: String(port), KIRO_LEARN_HOST: '127.0.0.1' });

describe('probe', () => {
  it('waits seconds for a collector slow to answer instead of calling it down', async () => {
    const port = await health(2500);
    expect(await probe(at(port))).toMatchObject({ ok: true, pid: 4242 });
  });

  it('gives up on a port that accepts but never answers', async () => {
    const port = await health(undefined);
    expect(await probe(at(port), 300)).toEqual({ ok: false });
  });

  it('says not running when nothing listens on the port', async () => {
    const port = await health(0);
    const closing = servers.pop()!;
    await new Promise((r) => closing.close(r));
    expect(await probe(at(port), 60_000)).toEqual({ ok: false });
  });
});
