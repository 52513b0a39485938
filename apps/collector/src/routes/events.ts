import { LIMITS, ListEventsQuerySchema, UlidSchema } from '@kiro-learn/schema';
import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { httpError } from '../errors.js';
import { readJson } from '../http/body.js';
import { parseWith } from '../http/respond.js';
import { ingestEvent } from '../ingest.js';

/** `/v1/events`: ingest, list, and the raw event by id. */
export function eventRoutes(ctx: AppContext): Hono {
  const app = new Hono();

  app.post('/', async (c) => {
    const input = await readJson(c, LIMITS.requestBytes);
    const retrieve = c.req.query('retrieve');
    const mode =
      retrieve === 'true' || retrieve === '1'
        ? 'prompt'
        : retrieve === 'session_start'
          ? 'session_start'
          : undefined;
    // `?hook=1`: sent by a hook, which may fire twice (see recent-hooks.ts).
    const hook = c.req.query('hook') === '1';
    return c.json(await ingestEvent(ctx, input, mode, { hook }));
  });

  app.get('/', async (c) => {
    const q = parseWith(ListEventsQuerySchema, c.req.query(), 'query');
    const page = await ctx.reads.listEvents({
      limit: q.limit,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.session_id ? { sessionId: q.session_id } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.cursor ? { cursor: q.cursor } : {}),
    });
    return c.json({
      items: page.items,
      ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
    });
  });

  app.get('/:event_id', async (c) => {
    const id = parseWith(UlidSchema, c.req.param('event_id'), 'event_id');
    // The stored text as it is: the MCP server recovers raw events byte for byte.
    const json = await ctx.storage.getEventJson(id);
    if (json === undefined) throw httpError(404, `no event ${id}`);
    return c.body(json, 200, { 'Content-Type': 'application/json' });
  });

  return app;
}
