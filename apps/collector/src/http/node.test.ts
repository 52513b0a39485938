import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { requestHeader } from './node.js';

const servers: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

// The same route behind Node and under app.request(): both must see the same headers.
const app = new Hono();
app.get('/', (c) =>
  c.json({
    origin: requestHeader(c, 'origin') ?? null,
    custom: requestHeader(c, 'x-custom') ?? null,
    missing: requestHeader(c, 'x-missing') ?? null,
  }),
);

describe('requestHeader', () => {
  it('reads the same values behind a real server and under app.request()', async () => {
    const server = createAdaptorServer({ fetch: app.fetch });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const headers = { Origin: 'http://127.0.0.1:1', 'X-Custom': 'a b' };
    const expected = { origin: 'http://127.0.0.1:1', custom: 'a b', missing: null };
    const viaNode = await fetch(`http://127.0.0.1:${port}/`, { headers });
    expect(await viaNode.json()).toEqual(expected);
    expect(await (await app.request('/', { headers })).json()).toEqual(expected);
  });
});
