// examples/team.ts: a team server on SQLite and one member's client, in one process; the client pushes a record and finds it.
// The kiro-learn collector composes the same pieces (with PostgreSQL and its own security
// middleware); any hono host can.

import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createRetriever } from '@kiro-learn/retrieval';
import { createScrubber, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import {
  createTeamClient,
  hashToken,
  newMemberToken,
  setRequestMember,
  teamErrorResponse,
  teamRoutes,
} from '@kiro-learn/team';
import { Hono } from 'hono';

const storage = await openSqliteStorage({
  path: join(mkdtempSync(join(tmpdir(), 'team-example-')), 'server.db'),
});
// A member token is shown once; the server keeps its SHA-256.
const token = newMemberToken();
await storage.addMember({
  name: 'alice',
  team: 'core',
  role: 'member',
  tokenHash: hashToken(token),
});

const app = new Hono();
// Authentication is the host's: here, a member token or nothing.
app.use(async (c, next) => {
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const member = bearer ? await storage.findMember(hashToken(bearer)) : undefined;
  if (member) setRequestMember(c, member);
  await next();
});
const retriever = createRetriever({ storage, log: false });
app.route(
  '/v1/team',
  teamRoutes({
    storage,
    reads: storage,
    scrubber: createScrubber(),
    search: (query) => retriever.search(query),
    serverToken: false,
    version: '0.0.0',
  }),
);
app.onError(
  (error) => teamErrorResponse(error) ?? new Response('{"error":"internal"}', { status: 500 }),
);

const server = createServer(getRequestListener(app.fetch));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let found = 0;
try {
  const client = createTeamClient({ url, token });
  console.log(await client.whoami()); // { team: 'core', member: 'alice', role: 'member', … }
  const record = newRecord({
    namespace: '/actor/alice/project/payments-api/',
    strategy: 'example',
    title: 'Stripe webhooks need the raw body',
    summary: 'express.json() consumed the body, so signature verification failed.',
    facts: ['mount express.raw() on the webhook route'],
    concepts: ['stripe', 'webhooks'],
    files_touched: ['src/webhooks/stripe.ts'],
    observation_type: 'discovery' as const,
  });
  console.log(await client.putRecord('github.com-acme-payments-api', 1, record)); // stored
  for (const hit of await client.search('github.com-acme-payments-api', 'stripe signature', 5)) {
    console.log(hit.author, hit.record.title);
    found++;
  }
} finally {
  server.close();
  await storage.close();
}
if (found === 0) process.exit(1);
