import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import type { CollectorAddress } from '@kiro-learn/schema/node';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from './http.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(server: Server): Promise<CollectorAddress> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { host: '127.0.0.1', port, baseUrl: `http://127.0.0.1:${port}`, home: '/nonexistent' };
}

/** A real node:http server: what the collector runs on. */
function httpServer(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  return listen(
    createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => handle(req, body, res));
    }),
  );
}

describe('send', () => {
  it('posts JSON and reads a content-length answer, with non-ASCII text intact', async () => {
    let seen: { method?: string; url?: string; headers?: object; body?: string } = {};
    const address = await httpServer((req, body, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ context: '## Prior observations — 日本語' }));
    });
    const answer = await send(
      { ...address, token: 's3cret' },
      'POST',
      '/v1/events?retrieve=true',
      '{"prompt":"héllo"}',
      2000,
    );
    expect(answer).toMatchObject({
      status: 200,
      body: '{"context":"## Prior observations — 日本語"}',
    });
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/v1/events?retrieve=true',
      body: '{"prompt":"héllo"}',
      headers: {
        host: `127.0.0.1:${address.port}`,
        'content-type': 'application/json',
        authorization: 'Bearer s3cret',
      },
    });
  });

  it('reads a chunked answer and an error status', async () => {
    const address = await httpServer((_req, _body, res) => {
      res.statusCode = 503;
      res.write('{"error":');
      res.end('"busy"}');
    });
    expect(await send(address, 'GET', '/healthz', undefined, 2000)).toMatchObject({
      status: 503,
      body: '{"error":"busy"}',
    });
  });

  it('does not wait for the server to close once the whole body is in', async () => {
    const lingering = await listen(
      createTcpServer((socket) => {
        socket.resume();
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}');
        socket.on('end', () => socket.end());
      }),
    );
    expect(await send(lingering, 'GET', '/healthz', undefined, 2000)).toMatchObject({
      status: 200,
      body: '{}',
    });
  });

  it('rejects when nothing listens, when the answer is not HTTP, and when none comes', async () => {
    const closed = await listen(createTcpServer());
    await new Promise((resolve) => servers.pop()?.close(resolve));
    await expect(send(closed, 'GET', '/healthz', undefined, 2000)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    const garbage = await listen(createTcpServer((socket) => socket.resume().end('hello\r\n')));
    await expect(send(garbage, 'GET', '/healthz', undefined, 2000)).rejects.toThrow(/malformed/);
    const silent = await listen(createTcpServer((socket) => socket.resume()));
    await expect(send(silent, 'GET', '/healthz', undefined, 50)).rejects.toThrow(/no answer/);
  });
});
