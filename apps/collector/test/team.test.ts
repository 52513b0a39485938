import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNamespace, type MemoryRecord, newRecordId, teamNamespace } from '@kiro-learn/schema';
import { openSqliteStorage, type StorageBackend } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { hashToken, newMemberToken } from '@kiro-learn/team';
import { TEAM_PROJECT as PROJECT, memberRecord as record } from '@kiro-learn/test-harness/records';
import { freshSchema } from '@kiro-learn/test-postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Collector, createCollector } from '../src/app.js';
import { normalizeSettings } from '../src/config/settings.js';
import { send } from './helpers.js';

const SERVER_TOKEN = 'the-team-servers-own-token-0123456789abcdef';

/** How a test opens the team server's database, twice over for PostgreSQL (the CLI's own connection). */
interface Backend {
  name: string;
  open(): Promise<{ storage: StorageBackend; admin: () => Promise<StorageBackend> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'kl-team-'));
      const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
      // One process owns a SQLite file: member changes go through the collector's storage.
      return { storage, admin: async () => storage };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const url = inject('postgresUrl');
      const schema = freshSchema();
      const storage = await openPostgresStorage({ url, schema });
      // `kiro-learn team …` on the server: another connection to the same database.
      return { storage, admin: () => openPostgresStorage({ url, schema }) };
    },
  },
];

describe.each(backends)('team server on $name', (backend) => {
  let collector: Collector;
  let storage: StorageBackend;
  let admin: () => Promise<StorageBackend>;
  let port: number;
  let home: string;
  const tokens: Record<string, string> = {};

  /** Adds a member the way `kiro-learn team add-member` does (a token, stored hashed). */
  async function addMember(name: string, team: string, role: 'member' | 'admin' = 'member') {
    const token = newMemberToken();
    const store = await admin();
    await store.addMember({ name, team, role, tokenHash: hashToken(token) });
    if (store !== storage) await store.close();
    tokens[name] = token;
  }

  const as = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
  const put = (name: string, r: MemoryRecord, revision: number, project = PROJECT) =>
    send(port, 'PUT', `/v1/team/records/${r.record_id}`, {
      body: { project_id: project, revision, record: r },
      headers: as(name),
    });
  const search = (name: string, query: string, project = PROJECT) =>
    send(
      port,
      'GET',
      `/v1/team/search?project=${encodeURIComponent(project)}&query=${encodeURIComponent(query)}`,
      { headers: as(name) },
    );
  const recent = (name: string, project = PROJECT) =>
    send(port, 'GET', `/v1/team/recent?project=${encodeURIComponent(project)}&limit=50`, {
      headers: as(name),
    });

  beforeAll(async () => {
    ({ storage, admin } = await backend.open());
    home = mkdtempSync(join(tmpdir(), 'kl-team-home-'));
    const settings = normalizeSettings({ port: 0, token: SERVER_TOKEN }, home);
    collector = createCollector({ storage, settings, version: '9.9.9' });
    ({ port } = await collector.listen());
    await addMember('alice', 'core');
    await addMember('bob', 'core');
    await addMember('lead', 'core', 'admin');
    await addMember('eve', 'other', 'admin');
  });
  afterAll(async () => {
    await collector.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('whoami says who the token is; no token, an unknown one, or the server token get 401/403 JSON', async () => {
    const me = await send(port, 'GET', '/v1/team/whoami', { headers: as('lead') });
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ team: 'core', member: 'lead', role: 'admin', version: '9.9.9' });
    const none = await send(port, 'GET', '/v1/team/whoami');
    expect(none.status).toBe(401);
    expect(none.json.error).toMatch(/bearer token is required/);
    const forged = await send(port, 'GET', '/v1/team/whoami', {
      headers: { Authorization: 'Bearer klm_forged' },
    });
    expect(forged.status).toBe(401);
    const server = await send(port, 'GET', '/v1/team/whoami', {
      headers: { Authorization: `Bearer ${SERVER_TOKEN}` },
    });
    expect(server.status).toBe(403);
    expect(server.json.error).toMatch(/member's token/);
  });

  it('a push is stored once per revision, scoped to the team, scrubbed again, found by search and recent', async () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const r = record({
      // The member's machine should have scrubbed this; the server does it again.
      facts: [`the key ${secret} was in the test fixture`],
      namespace: buildNamespace('mallory', 'somewhere-else'),
    });
    const first = await put('alice', r, 1);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ record_id: r.record_id, stored: true });
    expect(await put('alice', r, 1)).toMatchObject({
      status: 200,
      json: { record_id: r.record_id, stored: false },
    });
    const stored = await storage.getRecord(r.record_id);
    expect(stored?.namespace).toBe(teamNamespace('core', PROJECT));
    expect(JSON.stringify(stored)).not.toContain(secret);

    const found = await search('bob', 'stripe webhook signature');
    expect(found.status).toBe(200);
    expect(found.json.items).toHaveLength(1);
    expect(found.json.items[0]).toMatchObject({
      record: { record_id: r.record_id, title: r.title },
      author: 'alice',
      score: expect.any(Number),
    });
    expect((await recent('bob')).json.items.map((i: { author: string }) => i.author)).toEqual([
      'alice',
    ]);
    // Any text is a query, none is an error.
    for (const text of ['', '"', 'AND OR NOT *', ')(', 'ünïcödé 🙂']) {
      expect((await search('bob', text)).status, text).toBe(200);
    }

    // Revisions only move forward: an older one arriving late changes nothing.
    const edited = { ...r, title: 'Stripe webhooks: verify the raw body' };
    expect((await put('alice', edited, 3)).json.stored).toBe(true);
    expect((await put('alice', { ...r, title: 'stale' }, 2)).json.stored).toBe(false);
    expect((await storage.getRecord(r.record_id))?.title).toBe(edited.title);
    const metrics = await send(port, 'GET', '/metrics', {
      headers: { Authorization: `Bearer ${SERVER_TOKEN}` },
    });
    expect(metrics.text).toMatch(
      /^kiro_learn_team_writes_total\{op="push",outcome="stale"\} [1-9]/m,
    );
    const twice = await search('bob', 'stripe');
    expect(twice.json.items.map((i: { record: MemoryRecord }) => i.record.title)).toEqual([
      edited.title,
    ]);
  });

  it('only the author or an admin of the team may overwrite or delete', async () => {
    const r = record({ title: 'Kafka consumer lag comes from the rebalance' });
    expect((await put('alice', r, 1)).json.stored).toBe(true);
    const overwrite = await put('bob', { ...r, title: 'bob was here' }, 2);
    expect(overwrite.status).toBe(403);
    expect(overwrite.json).toMatchObject({ error: expect.stringMatching(/shared by alice/) });
    const del = await send(port, 'DELETE', `/v1/team/records/${r.record_id}`, {
      headers: as('bob'),
    });
    expect(del.status).toBe(403);
    // The author's own edit keeps going, and the lead (admin) may edit and delete.
    expect((await put('alice', r, 2)).json.stored).toBe(true);
    expect((await put('lead', { ...r, title: 'Kafka lag: rebalance storms' }, 3)).json).toEqual({
      record_id: r.record_id,
      stored: true,
    });
    const hits = (await search('bob', 'kafka rebalance')).json.items;
    expect(hits.map((i: { author: string }) => i.author)).toEqual(['alice']);
    const gone = await send(port, 'DELETE', `/v1/team/records/${r.record_id}`, {
      headers: as('lead'),
    });
    expect(gone).toMatchObject({ status: 200, json: { deleted: true } });
    const again = await send(port, 'DELETE', `/v1/team/records/${r.record_id}`, {
      headers: as('alice'),
    });
    expect(again.status).toBe(404);
    expect(again.json.error).toMatch(/no shared memory record/);
    expect((await search('alice', 'kafka rebalance')).json.items).toEqual([]);
  });

  it('a shared record stays in the project it was first shared to: 409 for a push naming another, as locally', async () => {
    const r = record({ title: 'Charges carry a client reference' });
    expect((await put('alice', r, 1)).status).toBe(200);
    for (const [name, revision] of [
      ['alice', 2],
      ['lead', 3],
    ] as const) {
      const moved = await put(name, { ...r, title: 'Moved away' }, revision, 'acme-other-repo');
      expect(moved.status, name).toBe(409);
      expect(moved.json).toMatchObject({
        error: expect.stringMatching(/stays in the project it was first shared to/),
        details: { project_id: PROJECT },
      });
    }
    expect(
      (await recent('alice')).json.items.map((i: { record: MemoryRecord }) => i.record.title),
    ).toContain('Charges carry a client reference');
    expect((await recent('alice', 'acme-other-repo')).json.items).toEqual([]);
    // The local API answers the same for an id it has in another namespace.
    const local = await send(port, 'POST', '/v1/memories', {
      body: { ...r, namespace: buildNamespace('alice', 'elsewhere') },
      headers: { Authorization: `Bearer ${SERVER_TOKEN}` },
    });
    expect(local.status).toBe(409);
  });

  it('a revision past LIMITS.teamRevision is refused, so no push can make later edits stale', async () => {
    const r = record({ title: 'Retry webhooks with backoff' });
    expect((await put('alice', r, 1)).status).toBe(200);
    const jam = await put('alice', { ...r, title: 'Jammed' }, Number.MAX_SAFE_INTEGER);
    expect(jam.status).toBe(400);
    expect(jam.json.details).toEqual([expect.stringMatching(/^revision: .*2147483647/)]);
    const next = await put('alice', { ...r, title: 'Retry webhooks with jittered backoff' }, 2);
    expect(next.json).toMatchObject({ stored: true });
    expect((await storage.getRecord(r.record_id))?.title).toBe(
      'Retry webhooks with jittered backoff',
    );
  });

  it("another team's token sees nothing of this team's records, whatever project it asks for", async () => {
    const r = record({ title: 'Terraform state lives in the ops bucket' });
    expect((await put('alice', r, 1)).json.stored).toBe(true);
    for (const project of [PROJECT, `team:core`, '..', 'core']) {
      expect((await search('eve', 'terraform state', project)).json.items).toEqual([]);
      expect((await recent('eve', project)).json.items).toEqual([]);
    }
    // Eve is an admin, but of another team: she can neither change nor delete it, nor
    // claim its id for her team.
    expect((await put('eve', { ...r, title: 'taken over' }, 9)).status).toBe(409);
    const del = await send(port, 'DELETE', `/v1/team/records/${r.record_id}`, {
      headers: as('eve'),
    });
    expect(del.status).toBe(404);
    expect((await storage.getRecord(r.record_id))?.title).toBe(r.title);
    // Her own team's records stay hers.
    const hers = record({ title: 'Terraform plan runs in CI only' });
    expect((await put('eve', hers, 1)).json.stored).toBe(true);
    const mine = (await search('eve', 'terraform')).json.items;
    expect(mine.map((i: { record: MemoryRecord }) => i.record.record_id)).toEqual([hers.record_id]);
    const ours = (await search('bob', 'terraform')).json.items;
    expect(ours.map((i: { record: MemoryRecord }) => i.record.record_id)).toEqual([r.record_id]);
  });

  it('member tokens reach the team routes only; the server token still reaches the rest', async () => {
    for (const [method, path] of [
      ['GET', '/v1/memories'],
      ['GET', '/v1/events'],
      ['GET', '/v1/stats'],
      ['GET', '/v1/export'],
      ['GET', '/ui/api/memories'],
      ['GET', '/v1/stream'],
      ['POST', '/v1/forget'],
      ['POST', '/v1/events'],
    ] as const) {
      const reply = await send(port, method, path, {
        headers: as('lead'),
        ...(method === 'POST' ? { body: { all: true } } : {}),
      });
      expect(reply.status, path).toBe(403);
      expect(reply.json.error, path).toMatch(/team routes only/);
    }
    expect((await send(port, 'GET', '/healthz', { headers: as('alice') })).status).toBe(200);
    const all = await send(port, 'GET', '/v1/memories?limit=100', {
      headers: { Authorization: `Bearer ${SERVER_TOKEN}` },
    });
    expect(all.status).toBe(200);
    expect(all.json.total).toBeGreaterThan(0);
    // A record the server's token saved into a team's namespace was shared by no member:
    // it does not go out to members.
    const unshared = record({
      namespace: teamNamespace('core', PROJECT),
      title: 'Zeppelin hangar inventory',
    });
    const saved = await send(port, 'POST', '/v1/memories', {
      body: unshared,
      headers: { Authorization: `Bearer ${SERVER_TOKEN}` },
    });
    expect(saved.status).toBe(200);
    expect((await search('bob', 'zeppelin hangar')).json.items).toEqual([]);
    const ids = (await recent('bob')).json.items.map((i: { record: MemoryRecord }) => i.record);
    expect(ids.map((r: MemoryRecord) => r.record_id)).not.toContain(unshared.record_id);
  });

  it('a removed member is refused at once', async () => {
    await addMember('carol', 'core');
    expect((await send(port, 'GET', '/v1/team/whoami', { headers: as('carol') })).status).toBe(200);
    const store = await admin();
    expect(await store.removeMember('carol')).toBe(true);
    if (store !== storage) await store.close();
    const after = await send(port, 'GET', '/v1/team/whoami', { headers: as('carol') });
    expect(after.status).toBe(401);
    expect(after.json.error).toEqual(expect.any(String));
    expect((await put('carol', record(), 1)).status).toBe(401);
  });

  it('an export and import of the server keeps who shared each record and its revision', async () => {
    const r = record({ title: 'Refunds are idempotent by refund id' });
    expect((await put('alice', r, 3)).json).toEqual({ record_id: r.record_id, stored: true });
    const server = { Authorization: `Bearer ${SERVER_TOKEN}` };
    const exported = await fetch(`http://127.0.0.1:${port}/v1/export`, { headers: server });
    const file = await exported.text();
    const line = file.split('\n').find((l) => l.includes(r.record_id));
    expect(JSON.parse(line!).team).toEqual({ team: 'core', author: 'alice', revision: 3 });

    // The record is lost (say, a bad restore), then the export is imported back.
    expect(
      (await send(port, 'DELETE', `/v1/memories/${r.record_id}`, { headers: server })).status,
    ).toBe(200);
    expect((await search('bob', 'refunds idempotent')).json.items).toEqual([]);
    const imported = await fetch(`http://127.0.0.1:${port}/v1/import`, {
      method: 'POST',
      headers: { ...server, 'Content-Type': 'application/x-ndjson' },
      body: file,
    });
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as { rejected_total: number }).rejected_total).toBe(0);

    // Shared again, by Alice: teammates find it with her name, her revision still holds.
    const found = (await search('bob', 'refunds idempotent')).json.items as Array<{
      record: MemoryRecord;
      author: string;
    }>;
    expect(found.map((i) => [i.record.record_id, i.author])).toEqual([[r.record_id, 'alice']]);
    expect((await put('alice', { ...r, title: 'older' }, 3)).json.stored).toBe(false);
    expect((await put('bob', r, 9)).status).toBe(403);
  });

  it('bad input is a 400 with {error, details}', async () => {
    const r = record();
    const cases: Array<[string, string, unknown]> = [
      ['PUT', `/v1/team/records/${r.record_id}`, { project_id: PROJECT, revision: 0, record: r }],
      ['PUT', `/v1/team/records/${r.record_id}`, { project_id: PROJECT, revision: 1.5, record: r }],
      ['PUT', `/v1/team/records/${r.record_id}`, { project_id: 'a/b', revision: 1, record: r }],
      ['PUT', `/v1/team/records/${r.record_id}`, { project_id: PROJECT, revision: 1 }],
      [
        'PUT',
        `/v1/team/records/${r.record_id}`,
        { project_id: PROJECT, revision: 1, record: { ...r, title: '' } },
      ],
      ['PUT', `/v1/team/records/${newRecordId()}`, { project_id: PROJECT, revision: 1, record: r }],
      ['PUT', '/v1/team/records/not-an-id', { project_id: PROJECT, revision: 1, record: r }],
      ['GET', `/v1/team/search?project=${PROJECT}`, undefined],
      ['GET', `/v1/team/search?project=${PROJECT}&query=x&limit=51`, undefined],
      ['GET', '/v1/team/recent', undefined],
      ['DELETE', '/v1/team/records/nope', undefined],
    ];
    for (const [method, path, body] of cases) {
      const reply = await send(port, method, path, {
        headers: as('alice'),
        ...(body === undefined ? {} : { body }),
      });
      expect(reply.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(reply.json).toMatchObject({ error: expect.any(String) });
      expect(reply.json.details, `${method} ${path}`).toBeDefined();
    }
    const notJson = await send(port, 'PUT', `/v1/team/records/${r.record_id}`, {
      body: '{"project_id":',
      headers: as('alice'),
    });
    expect(notJson.status).toBe(400);
    expect(await storage.getRecord(r.record_id)).toBeUndefined();
  });
});

describe('team server rate limits', () => {
  let collector: Collector;
  let storage: StorageBackend;
  let port: number;
  let home: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'kl-team-limits-'));
    storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
    const settings = normalizeSettings(
      {
        port: 0,
        token: SERVER_TOKEN,
        rateLimit: { failedAuthPerMinute: 5, memberPerSecond: 1, memberBurst: 5 },
      },
      home,
    );
    collector = createCollector({ storage, settings, version: '9.9.9' });
    ({ port } = await collector.listen());
    for (const name of ['alice', 'bob']) {
      tokens[name] = newMemberToken();
      await storage.addMember({
        name,
        team: 'core',
        role: 'member',
        tokenHash: hashToken(tokens[name]!),
      });
    }
  });
  afterAll(async () => {
    await collector.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** /metrics in-process: loopback is held back by then, and this reads from no address. */
  const metrics = async () =>
    (
      await collector.app.request('/metrics', {
        headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${SERVER_TOKEN}` },
      })
    ).text();

  it("holds a member's token to its burst and rate with 429 and Retry-After; other members go on", async () => {
    const whoami = (name: string) =>
      send(port, 'GET', '/v1/team/whoami', {
        headers: { Authorization: `Bearer ${tokens[name]}` },
      });
    // Twenty at once: five from the burst, and at most one more a second.
    const replies = await Promise.all(Array.from({ length: 20 }, () => whoami('alice')));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    const refused = replies.find((reply) => reply.status === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json).toMatchObject({
      error: expect.stringMatching(/too many requests with alice's token/),
    });
    expect((await whoami('bob')).status).toBe(200);
    expect(await metrics()).toMatch(/^kiro_learn_rate_limited_total\{limit="member"\} [1-9]/m);
  });

  it('holds back an address that sent wrong tokens, before looking at the next token it sends', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const reply = await send(port, 'GET', '/v1/team/whoami', {
        headers: { Authorization: `Bearer klm_guess_${i}` },
      });
      statuses.push(reply.status);
    }
    // Five wrong guesses a minute: the rest are not even checked.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(34);
    const held = await send(port, 'GET', '/v1/team/whoami', {
      headers: { Authorization: `Bearer ${tokens['bob']}` },
    });
    expect(held.status).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(held.json.error).toMatch(/too many requests with a wrong token from this address/);
    expect(await metrics()).toMatch(
      /^kiro_learn_rate_limited_total\{limit="address"\} (3[4-9]|[4-9]\d)/m,
    );
  });
});
