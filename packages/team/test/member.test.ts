import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNamespace, createScrubber } from '@kiro-learn/schema';
import { openSqliteStorage, type StorageBackend } from '@kiro-learn/storage';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeamClient,
  createTeamSwitch,
  readShareMarker,
  readUnshared,
  SHARE_FILE,
  sharingRoutes,
  silentTeamLogger,
  startOutboxPusher,
  teamErrorResponse,
  writeShareMarker,
  writeUnshared,
} from '../src/index.js';
import { PROJECT, record, startTeamServer, type TeamServer } from './server.js';

// A member's machine: its own SQLite store, a shared project, and the outbox pushing to a
// real team server.
const FAST = { pollMs: 20, retryMinMs: 20, retryMaxMs: 100 };
const NAMESPACE = buildNamespace('alice', PROJECT);

let server: TeamServer;
let token: string;
let home: string;
let storage: StorageBackend;
beforeAll(async () => {
  server = await startTeamServer();
  token = await server.addMember('alice');
  home = mkdtempSync(join(tmpdir(), 'kl-team-member-'));
  storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  await storage.sharing.share(NAMESPACE, PROJECT);
});
afterAll(async () => {
  await storage.close();
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the outbox', () => {
  it('pushes a shared project’s records once, scrubbed with the user’s own patterns', async () => {
    const mine = record({ summary: 'The staging password is hunter2-acme; rotate it.' });
    await storage.putRecord(mine);
    const pusher = startOutboxPusher({
      storage,
      client: createTeamClient({ url: server.url, token }),
      scrubber: createScrubber({ extraPatterns: ['hunter2-\\w+'] }),
      logger: silentTeamLogger,
      timing: FAST,
    });
    try {
      expect(await pusher.drain()).toBe(true);
      expect(pusher.state.pushed).toBe(1);
      expect((await storage.sharing.outboxSummary()).count).toBe(0);
      const there = await server.storage.getRecord(mine.record_id);
      expect(there?.summary).not.toContain('hunter2');
      expect(there?.title).toBe(mine.title);
    } finally {
      await pusher.stop();
    }
  });

  it('keeps entries while the server is unreachable, and says why', async () => {
    const gone = await startTeamServer();
    const url = gone.url;
    await gone.close();
    const waiting = record({ title: 'Waits for the server' });
    await storage.putRecord(waiting);
    const pusher = startOutboxPusher({
      storage,
      client: createTeamClient({ url, token }),
      scrubber: createScrubber(),
      logger: silentTeamLogger,
      timing: FAST,
    });
    try {
      expect(await pusher.drain()).toBe(false);
      expect(pusher.state.lastError).toMatch(/unreachable/);
      const outbox = await storage.sharing.outboxSummary();
      expect(outbox.count).toBe(1);
      expect(outbox.lastError).toMatch(/unreachable/);
    } finally {
      await pusher.stop();
    }
  });
});

describe('share files', () => {
  it('a share file names the remote; the opt-out list round-trips', () => {
    const root = mkdtempSync(join(tmpdir(), 'kl-team-root-'));
    try {
      expect(readShareMarker(root)).toBeUndefined();
      const path = writeShareMarker(root, 'github.com/acme/payments-api');
      expect(path).toBe(join(root, SHARE_FILE));
      expect(readFileSync(path, 'utf8')).toBe(
        '{\n  "share": true,\n  "remote": "github.com/acme/payments-api"\n}\n',
      );
      expect(readShareMarker(root)).toEqual({
        share: true,
        remote: 'github.com/acme/payments-api',
      });
      writeUnshared(root, new Set(['b', 'a']));
      expect([...readUnshared(root)]).toEqual(['a', 'b']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('/v1/sharing', () => {
  it('answers 404 with what to do on a machine that joined no team', async () => {
    const teams = createTeamSwitch({
      storage,
      settings: { searchBudgetMs: 100 },
      home,
      scrubber: createScrubber(),
      logger: silentTeamLogger,
      activity: { on: () => () => {} },
    });
    const app = new Hono().route('/v1/sharing', sharingRoutes(teams));
    app.onError((error) => teamErrorResponse(error) ?? new Response(null, { status: 500 }));
    const reply = await app.request('/v1/sharing');
    expect(reply.status).toBe(404);
    expect(await reply.json()).toEqual({
      error: 'this collector has not joined a team: kiro-learn team join <url> --token <token>',
    });
    await teams.close();
  });
});
