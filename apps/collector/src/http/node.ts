import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** What @hono/node-server puts in `c.env`; absent under `app.request()`. */
interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Node's request, when the app runs behind @hono/node-server. */
export function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as NodeBindings | undefined)?.incoming;
}

/** Node's response, when the app runs behind @hono/node-server. */
export function outgoingOf(c: Context): ServerResponse | undefined {
  return (c.env as NodeBindings | undefined)?.outgoing;
}

/**
 * A request header (`name` in lower case). Read from the headers Node already parsed:
 * hono's `c.req.header()` first builds a web `Headers` object of all of them, which costs
 * more than the rest of the request's header checks together.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c);
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
