import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { type Activity, eventSummary } from '../activity.js';
import type { AppContext } from '../context.js';

const HEARTBEAT_MS = 15_000;

/**
 * GET /v1/stream: server-sent events `event` (an event summary), `retrieval` and
 * `extraction`, as they happen. A comment line every 15 s keeps proxies from timing out.
 */
export function streamRoutes(ctx: AppContext): Hono {
  const app = new Hono();
  let nextId = 0;

  app.get('/', (c) =>
    streamSSE(c, async (stream) => {
      let finish: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const send = (activity: Activity) => {
        const data =
          activity.type === 'event'
            ? eventSummary(activity.event)
            : activity.type === 'retrieval'
              ? activity.retrieval
              : activity.extraction;
        void stream.writeSSE({
          event: activity.type,
          id: String(++nextId),
          data: JSON.stringify(data),
        });
      };
      const unsubscribe = ctx.hub.on(send);
      const stopOnClose = ctx.onClose(finish);
      const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      stream.onAbort(finish);
      await stream.write(': connected\n\n');
      await done;
      clearInterval(heartbeat);
      unsubscribe();
      stopOnClose();
    }),
  );

  return app;
}
