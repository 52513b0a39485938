import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createRetriever } from '@kiro-learn/retrieval';
import { createScrubber } from '@kiro-learn/schema';
import { openSqliteStorage, type StorageBackend } from '@kiro-learn/storage';
import { Hono } from 'hono';
import {
  hashToken,
  newMemberToken,
  refuse,
  setRequestMember,
  teamErrorResponse,
  teamRoutes,
} from '../src/index.js';

/** A memory record as a member's machine has it; the project it is shared to. */
export { memberRecord as record, TEAM_PROJECT as PROJECT } from '@kiro-learn/test-harness/records';

export interface TeamServer {
  url: string;
  storage: StorageBackend;
  /** A new member's token. */
  addMember(name: string, team?: string, role?: 'member' | 'admin'): Promise<string>;
  close(): Promise<void>;
}

/**
 * A team server as a host other than the collector builds one: the package's routes on
 * a real SQLite store, behind a real HTTP server on 127.0.0.1 port 0, members found by
 * their tokens' hashes. `serverToken`: a token of the server's own (not a member's).
 */
export async function startTeamServer(serverToken?: string): Promise<TeamServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kl-team-pkg-'));
  const storage = await openSqliteStorage({ path: join(dir, 'server.db') });
  const retriever = createRetriever({ storage, log: false });
  const app = new Hono();
  app.use(async (c, next) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const member = bearer ? await storage.findMember(hashToken(bearer)) : undefined;
    if (member) setRequestMember(c, member);
    else if (bearer && bearer !== serverToken) {
      // As the collector answers a token that is neither the server's nor a member's.
      throw refuse(401, "unknown bearer token: not this server's token nor a member's");
    }
    await next();
  });
  app.route(
    '/v1/team',
    teamRoutes({
      storage,
      reads: storage,
      scrubber: createScrubber(),
      search: (q) => retriever.search(q),
      serverToken: serverToken !== undefined,
      version: '1.2.3',
    }),
  );
  app.onError(
    (error) =>
      teamErrorResponse(error) ??
      new Response(JSON.stringify({ error: String(error) }), { status: 500 }),
  );
  const server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    storage,
    async addMember(name, team = 'core', role = 'member') {
      const token = newMemberToken();
      await storage.addMember({ name, team, role, tokenHash: hashToken(token) });
      return token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
