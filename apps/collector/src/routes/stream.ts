import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { httpError } from '../errors.js';
import { outgoingOf } from '../http/node.js';

const HEARTBEAT_MS = 15_000;

/**
 * GET /v1/stream: server-sent events `event` (an event summary), `retrieval` and
 * `extraction`, as they happen. A comment line every 15 s keeps proxies from timing out.
 * Streams go through the collector's fan-out (ctx.fanout): bounded per client, capped in
 * number (503 past the cap), a client that stops reading is disconnected. On a shared
 * PostgreSQL the stream has other collectors' events too, watched only while it is read.
 */
export function streamRoutes(ctx: AppContext): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const outgoing = outgoingOf(c);
    const client = ctx.fanout.open(() => outgoing?.destroy());
    if (!client) {
      throw httpError(
        503,
        'too many open streams',
        [`at most ${ctx.fanout.limit} /v1/stream clients at once; close one and retry`],
        { 'Retry-After': '5' },
      );
    }
    const heartbeat = setInterval(() => client.comment('keep-alive'), HEARTBEAT_MS);
    heartbeat.unref();
    const stopOnClose = ctx.onClose(() => client.close());
    let release = () => {};
    let done = false;
    const finished = () => {
      done = true;
      clearInterval(heartbeat);
      stopOnClose();
      client.close();
      release();
    };
    outgoing?.once('close', finished);
    c.req.raw.signal?.addEventListener('abort', finished, { once: true });
    // Other collectors' events too (shared PostgreSQL), from before the stream answers.
    release = await ctx.watchOthers();
    if (done) release();
    client.comment('connected');
    return new Response(client.body, {
      headers: {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
      },
    });
  });

  return app;
}
