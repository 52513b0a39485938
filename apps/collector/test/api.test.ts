import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../src/app.js';
import { normalizeSettings } from '../src/config/settings.js';
import { makeEvent, makeRecord, NS, type Running, send, startCollector } from './helpers.js';

/** An agent's own hook payload, copied into the repository. */
const FIXTURES = new URL('./fixtures', import.meta.url).pathname;

let c: Running;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

describe('GET /healthz', () => {
  it('answers ok with the version and a request id', async () => {
    const r = await send(c.port, 'GET', '/healthz');
    expect(r.status).toBe(200);
    // The data dir it serves: a CLI of another data dir must not take it for its own.
    expect(r.json).toEqual({ status: 'ok', version: '9.9.9', pid: process.pid, home: c.home });
    expect(r.headers['x-request-id']).toMatch(/.+/);
  });
});

describe('GET /', () => {
  it('sends a browser to the viewer, token or not', async () => {
    const ui = new Hono().get('/*', (c) => c.text('the viewer'));
    const guarded = await startCollector({ token: 'a-long-random-token-value-123' }, { ui });
    try {
      const r = await send(guarded.port, 'GET', '/');
      expect(r.status).toBe(302);
      expect(r.headers.location).toBe('/ui/');
      expect((await send(guarded.port, 'GET', '/ui/')).text).toBe('the viewer');
    } finally {
      await guarded.close();
    }
  });
});

describe('events', () => {
  it('stores a shim-shaped payload and returns it byte for byte', async () => {
    const payload = JSON.parse(
      readFileSync(`${FIXTURES}/kiro-cli/postToolUse-fs_write.json`, 'utf8'),
    );
    const event = makeEvent({
      body: { type: 'json', data: payload },
      source: {
        surface: 'kiro-cli',
        version: '1.2.0',
        client_id: 'shim',
        project_path: payload.cwd,
      },
    });
    const first = await send(c.port, 'POST', '/v1/events', { body: event });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ event_id: event.event_id, stored: true });

    const again = await send(c.port, 'POST', '/v1/events', { body: event });
    expect(again.json).toEqual({ event_id: event.event_id, stored: false });

    const raw = await send(c.port, 'GET', `/v1/events/${event.event_id}`);
    expect(raw.status).toBe(200);
    expect(raw.json).toEqual(event);
  });

  it('lists newest first, pages with a cursor, and filters by namespace', async () => {
    const ns = '/actor/dev/project/listing/';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const e = makeEvent({ namespace: ns });
      ids.push(e.event_id);
      await send(c.port, 'POST', '/v1/events', { body: e });
    }
    const page1 = await send(
      c.port,
      'GET',
      `/v1/events?namespace=${encodeURIComponent(ns)}&limit=2`,
    );
    expect(page1.json.items.map((e: { event_id: string }) => e.event_id)).toEqual([ids[2], ids[1]]);
    const page2 = await send(
      c.port,
      'GET',
      `/v1/events?namespace=${encodeURIComponent(ns)}&limit=2&cursor=${page1.json.next_cursor}`,
    );
    expect(page2.json.items.map((e: { event_id: string }) => e.event_id)).toEqual([ids[0]]);
    expect(page2.json.next_cursor).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"event_id": ', 400, /not valid JSON/],
    ['an empty body', '', 400, /empty/],
    ['an invalid event', { kind: 'prompt' }, 400, /invalid event/],
  ])('answers %s with a clear error', async (_what, body, status, message) => {
    const r = await send(c.port, 'POST', '/v1/events', {
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(status);
    expect(r.json.error).toMatch(message);
  });

  it('lists every validation issue as dot.path: message', async () => {
    const r = await send(c.port, 'POST', '/v1/events', {
      body: { ...makeEvent(), event_id: 'nope', body: { type: 'text' } },
    });
    expect(r.status).toBe(400);
    expect(r.json.details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^event_id: /),
        expect.stringMatching(/^body\.content: /),
      ]),
    );
  });

  it('refuses a body over 2 MiB with 413', async () => {
    const big = makeEvent({ body: { type: 'text', content: 'x'.repeat(2 * 1024 * 1024) } });
    const r = await send(c.port, 'POST', '/v1/events', { body: big });
    expect(r.status).toBe(413);
    expect(r.json.error).toMatch(/larger than 2097152 bytes/);
  });

  it('answers 413 before the rest of an oversized body is sent', async () => {
    const socket = connect(c.port, '127.0.0.1');
    socket.write(
      `POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n{"a":`,
    );
    const head = await new Promise<string>((resolve) =>
      socket.once('data', (d) => resolve(d.toString())),
    );
    socket.destroy();
    expect(head).toMatch(/^HTTP\/1\.1 413/);
  });

  it('answers 413 to a chunked body once it crosses the cap', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: c.port,
          method: 'POST',
          path: '/v1/events',
          headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(256 * 1024, 'x');
      const pump = () => {
        while (!req.destroyed && req.write(chunk));
      };
      req.on('drain', pump);
      pump();
    });
    expect(status).toBe(413);
  });

  it('answers 404 for an unknown event, 400 for a malformed id', async () => {
    expect((await send(c.port, 'GET', `/v1/events/${newEventId()}`)).status).toBe(404);
    const bad = await send(c.port, 'GET', '/v1/events/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('invalid event_id');
  });

  it('answers 400 for a bad query and a bad cursor', async () => {
    expect((await send(c.port, 'GET', '/v1/events?limit=0')).status).toBe(400);
    expect((await send(c.port, 'GET', '/v1/events?namespace=nope')).status).toBe(400);
    expect((await send(c.port, 'GET', '/v1/events?cursor=abc')).status).toBe(400);
  });

  it('answers 405 with Allow for a wrong method, 404 for an unknown route', async () => {
    const put = await send(c.port, 'PUT', '/v1/events', { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toMatch(/GET/);
    expect(put.headers.allow).toMatch(/POST/);
    expect(put.json.error).toBe('method not allowed');
    const missing = await send(c.port, 'GET', '/v2/nothing');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'no such route' });
  });
});

describe('inline retrieval', () => {
  it('returns the context of matching records with a prompt', async () => {
    const record = makeRecord();
    await send(c.port, 'POST', '/v1/memories', { body: record });
    const prompt = makeEvent({
      kind: 'prompt',
      body: { type: 'text', content: 'why does the stripe webhook signature check fail?' },
    });
    const r = await send(c.port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect(r.status).toBe(200);
    expect(r.json.stored).toBe(true);
    expect(r.json.retrieval.records).toContain(record.record_id);
    expect(r.json.retrieval.context).toContain('## Prior observations from kiro-learn');
    expect(r.json.retrieval.context).toContain(`### ${record.title}`);
    expect(r.json.retrieval.latency_ms).toBeGreaterThanOrEqual(0);

    const log = await send(c.port, 'GET', `/v1/retrievals?namespace=${encodeURIComponent(NS)}`);
    expect(log.status).toBe(200);
    expect(log.json.items.some((e: { eventId?: string }) => e.eventId === prompt.event_id)).toBe(
      true,
    );
  });

  it('answers an empty context when nothing matches, and none for other kinds', async () => {
    const prompt = makeEvent({
      kind: 'prompt',
      body: { type: 'text', content: 'zebra quantum pottery' },
    });
    const r = await send(c.port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect(r.json.retrieval).toMatchObject({ context: '', records: [] });
    const tool = await send(c.port, 'POST', '/v1/events?retrieve=true', { body: makeEvent() });
    expect(tool.json.retrieval).toBeUndefined();
  });

  it("gives a new session the project's recent turn summaries with retrieve=session_start", async () => {
    const namespace = '/actor/dev/project/session-start/';
    const summary = makeRecord({
      namespace,
      observation_type: 'session_summary',
      title: 'Moved the users table to uuid keys',
    });
    await send(c.port, 'POST', '/v1/memories', { body: summary });
    const start = makeEvent({
      namespace,
      kind: 'note',
      body: { type: 'json', data: { hook: 'SessionStart' } },
    });
    const r = await send(c.port, 'POST', '/v1/events?retrieve=session_start', { body: start });
    expect(r.status).toBe(200);
    expect(r.json.retrieval.records).toEqual([summary.record_id]);
    expect(r.json.retrieval.context).toMatch(
      /^## Prior observations from kiro-learn\n\n### Moved the users table to uuid keys\n/,
    );
    const other = makeEvent({
      namespace: '/actor/dev/project/empty/',
      kind: 'note',
      body: { type: 'json', data: {} },
    });
    const none = await send(c.port, 'POST', '/v1/events?retrieve=session_start', { body: other });
    expect(none.json.retrieval).toMatchObject({ context: '', records: [] });
  });

  it("gives a session back its own records after its agent's compaction hook (any agent)", async () => {
    const namespace = '/actor/dev/project/compaction/';
    const turn = makeEvent({
      namespace,
      session_id: 'compacted-session',
      kind: 'prompt',
      body: { type: 'text', content: 'raise the postgres pool size' },
      valid_time: new Date(Date.now() - 60_000).toISOString(),
    });
    await send(c.port, 'POST', '/v1/events', { body: turn });
    const own = makeRecord({
      namespace,
      title: 'Postgres pool raised to 60',
      summary: 'Forty connections ran out at the Monday peak; the pool is 60 now.',
      facts: ['DATABASE_POOL_MAX=60'],
      source_event_ids: [turn.event_id],
    });
    await send(c.port, 'POST', '/v1/memories', { body: own });
    const ask = async () =>
      (
        await send(c.port, 'POST', '/v1/events?retrieve=true', {
          body: makeEvent({
            namespace,
            session_id: 'compacted-session',
            kind: 'prompt',
            body: { type: 'text', content: 'postgres pool size' },
          }),
        })
      ).json.retrieval.records;
    // The agent still holds the turn it was made from.
    expect(await ask()).toEqual([]);
    // Codex, Cursor, Cline, Copilot, Gemini CLI and OpenCode say so only in this note.
    const compacted = makeEvent({
      namespace,
      session_id: 'compacted-session',
      kind: 'note',
      body: { type: 'json', data: { hook: 'PreCompact', source: 'compact' } },
    });
    expect((await send(c.port, 'POST', '/v1/events', { body: compacted })).status).toBe(200);
    expect(await ask()).toEqual([own.record_id]);
  });
});

describe('memories', () => {
  it('saves, reads, lists, searches, edits and deletes a record', async () => {
    const record = makeRecord({ namespace: '/actor/dev/project/mem/', title: 'Use pnpm catalogs' });
    const post = await send(c.port, 'POST', '/v1/memories', { body: record });
    expect(post.json).toEqual({ record_id: record.record_id, stored: true });

    const got = await send(c.port, 'GET', `/v1/memories/${record.record_id}`);
    expect(got.json).toMatchObject({ title: 'Use pnpm catalogs' });

    const list = await send(
      c.port,
      'GET',
      `/v1/memories?namespace=${encodeURIComponent(record.namespace)}`,
    );
    expect(list.json).toMatchObject({ total: 1, limit: 50, offset: 0 });

    const found = await send(
      c.port,
      'GET',
      `/v1/memories/search?query=catalogs&namespace=${encodeURIComponent(record.namespace)}`,
    );
    expect(found.json.map((r: MemoryRecord) => r.record_id)).toEqual([record.record_id]);

    const patched = await send(c.port, 'PATCH', `/v1/memories/${record.record_id}`, {
      body: { title: 'Use the pnpm catalog for versions' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ title: 'Use the pnpm catalog for versions' });
    expect(patched.json.updated_at).toBeDefined();

    const bad = await send(c.port, 'PATCH', `/v1/memories/${record.record_id}`, { body: {} });
    expect(bad.status).toBe(400);

    const del = await send(c.port, 'DELETE', `/v1/memories/${record.record_id}`);
    expect(del.json).toEqual({ deleted: true });
    expect((await send(c.port, 'DELETE', `/v1/memories/${record.record_id}`)).status).toBe(404);
    expect((await send(c.port, 'GET', `/v1/memories/${record.record_id}`)).status).toBe(404);
    const gone = await send(c.port, 'PATCH', `/v1/memories/${record.record_id}`, {
      body: { title: 'x' },
    });
    expect(gone.status).toBe(404);
  });

  it('links a record to the newer one that retires it, lists the chain, and undoes it', async () => {
    const ns = '/actor/dev/project/chain/';
    const hour = (h: number) =>
      new Date(Date.parse('2026-05-01T00:00:00Z') + h * 3_600_000).toISOString();
    const redis = makeRecord({ namespace: ns, title: 'Jobs queue on Redis', created_at: hour(0) });
    const rabbit = makeRecord({
      namespace: ns,
      title: 'Jobs queue on RabbitMQ',
      created_at: hour(1),
    });
    const sqs = makeRecord({ namespace: ns, title: 'Jobs queue on SQS', created_at: hour(2) });
    const elsewhere = makeRecord({ namespace: '/actor/dev/project/other-chain/' });
    for (const r of [redis, elsewhere]) await send(c.port, 'POST', '/v1/memories', { body: r });
    // Naming another project's record, or an unknown one, is refused before anything is saved.
    const refused = await send(c.port, 'POST', '/v1/memories', {
      body: { ...rabbit, supersedes: [elsewhere.record_id, newRecordId()] },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.details.supersedes).toHaveLength(2);
    expect((await send(c.port, 'GET', `/v1/memories/${rabbit.record_id}`)).status).toBe(404);

    const saved = await send(c.port, 'POST', '/v1/memories', {
      body: { ...rabbit, supersedes: [redis.record_id] },
    });
    expect(saved.json).toEqual({
      record_id: rabbit.record_id,
      stored: true,
      superseded: [redis.record_id],
    });
    await send(c.port, 'POST', '/v1/memories', { body: sqs });
    const marked = await send(c.port, 'POST', `/v1/memories/${rabbit.record_id}/supersession`, {
      body: { superseded_by: sqs.record_id, reason: 'moved again' },
    });
    expect(marked.json).toMatchObject({
      superseded_by: sqs.record_id,
      superseded_reason: 'moved again',
    });
    const cycle = await send(c.port, 'POST', `/v1/memories/${sqs.record_id}/supersession`, {
      body: { superseded_by: redis.record_id },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.json.error).toMatch(/cycle/);

    const chain = await send(c.port, 'GET', `/v1/memories/${redis.record_id}/chain`);
    expect(chain.json.current).toBe(sqs.record_id);
    expect(chain.json.records.map((r: MemoryRecord) => r.title)).toEqual([
      'Jobs queue on Redis',
      'Jobs queue on RabbitMQ',
      'Jobs queue on SQS',
    ]);
    const current = await send(
      c.port,
      'GET',
      `/v1/memories?namespace=${encodeURIComponent(ns)}&current=true`,
    );
    expect(current.json.items.map((r: MemoryRecord) => r.title)).toEqual(['Jobs queue on SQS']);

    const undone = await send(c.port, 'DELETE', `/v1/memories/${rabbit.record_id}/supersession`);
    expect(undone.status).toBe(200);
    expect(undone.json.superseded_by).toBeUndefined();
    expect(
      (await send(c.port, 'DELETE', `/v1/memories/${newRecordId()}/supersession`)).status,
    ).toBe(404);
  });

  it('refuses an invalid record and a bad search query', async () => {
    const r = await send(c.port, 'POST', '/v1/memories', { body: { ...makeRecord(), title: '' } });
    expect(r.status).toBe(400);
    expect(r.json.details).toEqual([expect.stringMatching(/^title: /)]);
    expect((await send(c.port, 'GET', '/v1/memories/search')).status).toBe(400);
    expect((await send(c.port, 'GET', '/v1/memories?limit=0')).status).toBe(400);
    expect((await send(c.port, 'GET', '/v1/memories?type=rumour')).status).toBe(400);
    expect((await send(c.port, 'GET', '/v1/memories/mr_nope')).status).toBe(400);
  });
});

describe('stats, logs and metrics', () => {
  it('reports totals per kind and project', async () => {
    const r = await send(c.port, 'GET', `/v1/stats?namespace=${encodeURIComponent(NS)}`);
    expect(r.status).toBe(200);
    expect(r.json.events.total).toBeGreaterThan(0);
    expect(r.json.projects).toEqual([expect.objectContaining({ namespace: NS })]);
    expect((await send(c.port, 'GET', '/v1/stats?namespace=/nope')).status).toBe(400);
  });

  it('lists extractions', async () => {
    const r = await send(c.port, 'GET', '/v1/extractions?limit=5');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json.items)).toBe(true);
    expect((await send(c.port, 'GET', '/v1/extractions?limit=-1')).status).toBe(400);
  });

  it('serves Prometheus text with ingest, retrieval and buffer metrics', async () => {
    c.collector.reportExtraction({
      namespace: NS,
      extractor: 'builtin',
      status: 'ok',
      batchSize: 3,
      records: 2,
      attempts: 1,
      durationMs: 40,
      startedAt: new Date().toISOString(),
    });
    const r = await send(c.port, 'GET', '/metrics');
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.text).toMatch(
      /^kiro_learn_ingest_events_total\{kind="tool_use",outcome="stored"\} \d+$/m,
    );
    expect(r.text).toMatch(
      /^kiro_learn_ingest_events_total\{kind="tool_use",outcome="duplicate"\} 1$/m,
    );
    expect(r.text).toMatch(/^kiro_learn_ingest_duration_seconds_bucket\{le="\+Inf"\} \d+$/m);
    expect(r.text).toMatch(
      /^kiro_learn_retrieval_duration_seconds_count\{outcome="ok"\} [1-9]\d*$/m,
    );
    expect(r.text).toMatch(/^kiro_learn_extractions_total\{status="ok"\} 1$/m);
    expect(r.text).toMatch(
      /^kiro_learn_buffer_pending_events\{namespace="\/actor\/dev\/project\/payments-api\/"\} \d+$/m,
    );
  });

  it('serves exactly the metrics docs/collector-api.md lists', async () => {
    // The docs are where an operator looks for what to alert on: a metric the page does not
    // name is invisible, and a name it keeps after a rename is an alert that never fires.
    const served = new Set(
      [...(await send(c.port, 'GET', '/metrics')).text.matchAll(/^# TYPE (\S+) /gm)].map(
        (m) => m[1],
      ),
    );
    const page = readFileSync(new URL('../../../docs/collector-api.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('### `GET /metrics`'));
    const listed = new Set(
      section.slice(0, section.indexOf('\n#', 1)).match(/\bkiro_learn_[a-z_]+[a-z]/g) ?? [],
    );
    expect(served.size).toBeGreaterThan(10);
    expect([...listed].sort()).toEqual([...served].sort());
  });
});

describe('GET /v1/stream', () => {
  it('streams newly stored events as server-sent events', async () => {
    const event = makeEvent({ body: { type: 'text', content: 'streamed line' } });
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: c.port, path: '/v1/stream' }, (res) => {
        expect(res.headers['content-type']).toMatch(/text\/event-stream/);
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes(': connected') && !text.includes('event: event')) {
            void send(c.port, 'POST', '/v1/events', { body: event });
          }
          if (text.includes(event.event_id)) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(received).toMatch(/event: event\ndata: \{.*"preview":"streamed line"\}\nid: \d+\n/);
  });
});

describe('failures', () => {
  it('answers 507 "disk full" when the database cannot grow, stores nothing, and recovers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kl-full-'));
    const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
    const collector = createCollector({
      storage,
      settings: normalizeSettings({ port: 0 }, home),
    });
    const { port } = await collector.listen();
    try {
      // SQLite's own size limit: past it every write fails with SQLITE_FULL, as on a full disk.
      const pages = Number(
        (await sql<{ page_count: number }>`PRAGMA page_count`.execute(storage.db)).rows[0]!
          .page_count,
      );
      await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(storage.db);
      const big = makeEvent({ body: { type: 'text', content: 'x'.repeat(200_000) } });
      const full = await send(port, 'POST', '/v1/events', { body: big });
      expect(full.status).toBe(507);
      expect(full.json).toMatchObject({
        error: 'disk full',
        details: expect.stringMatching(/nothing was stored/),
      });
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(storage.db);
      expect((await send(port, 'GET', `/v1/events/${big.event_id}`)).status).toBe(404);
      expect((await send(port, 'POST', '/v1/events', { body: big })).status).toBe(200);
    } finally {
      await collector.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('answers 500 without internals when a dependency throws', async () => {
    const broken = await startCollector(
      {},
      {
        search: async () => {
          throw new Error('boom in /home/dev/secret/path');
        },
      },
    );
    try {
      const r = await send(broken.port, 'GET', '/v1/memories/search?query=x');
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ error: 'internal error' });
    } finally {
      await broken.close();
    }
  });
});
