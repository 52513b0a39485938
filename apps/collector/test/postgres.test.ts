import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import { cli, cliAsync, waitFor } from '@kiro-learn/test-harness';
import { freshSchema } from '@kiro-learn/test-postgres';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Daemon, startDaemon } from '../src/daemon.js';
import { makeEvent, NS, pgRows, send } from './helpers.js';

const query = <T extends pg.QueryResultRow>(schema: string, text: string) =>
  pgRows<T>(inject('postgresUrl'), schema, text);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Member {
  daemon: Daemon;
  port: number;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** A collector daemon in this process on PostgreSQL schema `schema`, its own data dir. */
async function collectorOn(
  schema: string,
  settings: Record<string, unknown> = {},
): Promise<Member> {
  const home = mkdtempSync(join(tmpdir(), 'kl-pg-collector-'));
  writeFileSync(
    join(home, 'settings.json'),
    // Several collectors share this test process: none loads the embedding model (a worker
    // each, ~250 MB); semantic search on PostgreSQL is the conformance suite's to check.
    JSON.stringify({
      storage: { schema },
      extraction: { mode: 'builtin' },
      semantic: { enabled: false },
      ...settings,
    }),
  );
  const env = {
    ...process.env,
    KIRO_LEARN_HOME: home,
    KIRO_LEARN_PORT: '0',
    KIRO_LEARN_STORAGE_URL: inject('postgresUrl'),
  };
  const daemon = await startDaemon({ env });
  const port = Number(new URL(daemon.url).port);
  cleanups.push(async () => {
    await daemon.stop();
    rmSync(home, { recursive: true, force: true });
  });
  return { daemon, port, home, env: { ...env, KIRO_LEARN_PORT: String(port) } };
}

/** Opens /v1/stream and resolves with its text once `until` holds. */
function streamUntil(port: number, until: (text: string) => boolean, onOpen: () => void) {
  return new Promise<string>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/stream' }, (res) => {
      let text = '';
      let opened = false;
      res.on('data', (d: Buffer) => {
        text += d.toString();
        if (!opened && text.includes(': connected')) {
          opened = true;
          onOpen();
        }
        if (until(text)) {
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('collectors on PostgreSQL', () => {
  it('several collectors serve one database: stored once, streamed by all, status says PostgreSQL', async () => {
    const schema = freshSchema();
    const [a, b] = await Promise.all([collectorOn(schema), collectorOn(schema)]);
    const event = makeEvent({ body: { type: 'text', content: 'seen through the other one' } });
    const streamed = await streamUntil(
      b.port,
      (text) => text.includes(event.event_id),
      () => {
        void send(a.port, 'POST', '/v1/events', { body: event }).then(async (first) => {
          expect(first.json).toMatchObject({ event_id: event.event_id, stored: true });
          const again = await send(b.port, 'POST', '/v1/events', { body: event });
          expect(again.json).toMatchObject({ stored: false });
        });
      },
    );
    expect(streamed).toMatch(/event: event\ndata: \{[^\n]*"preview":"seen through the other one"/);
    expect((await send(b.port, 'GET', `/v1/events/${event.event_id}`)).json).toEqual(event);

    const status = (await send(a.port, 'GET', '/v1/status')).json;
    expect(status.storage).toMatchObject({ backend: 'postgres', ok: true });
    expect(status.storage.version).toMatch(/^\d+/);
    expect(JSON.stringify(status)).not.toContain(':postgres@'); // the password, if any
    // The CLI in a child process (this process serves the collectors meanwhile).
    const printed = await cliAsync(['status'], a.env);
    expect(printed.stdout).toMatch(/storage: PostgreSQL \d+[^\n]* \(\d/);
    const doctor = await cliAsync(['doctor'], a.env);
    expect(doctor.stdout).toMatch(/✓ storage: PostgreSQL \d+/);
  });

  it('a forget says whether the tables were compacted: not unless asked, and yes when nothing held them', async () => {
    const c = await collectorOn(freshSchema());
    const forget = async (compact: boolean) => {
      const event = makeEvent({ session_id: `forget-${newEventId()}` });
      expect((await send(c.port, 'POST', '/v1/events', { body: event })).status).toBe(200);
      const body = { session: event.session_id, namespace: NS, compact };
      return (await send(c.port, 'POST', '/v1/forget', { body })).json;
    };
    expect(await forget(false)).toMatchObject({ counts: { events: 1 }, compacted: false });
    const compacted = await forget(true);
    expect(compacted).toMatchObject({ counts: { events: 1 }, compacted: true });
    expect(compacted).not.toHaveProperty('compact_held');
  });

  it('extracts each pending event exactly once however many collectors serve it', async () => {
    const schema = freshSchema();
    const collectors = await Promise.all([
      collectorOn(schema, { buffer: { idleMs: 200 } }),
      collectorOn(schema, { buffer: { idleMs: 200 } }),
      collectorOn(schema, { buffer: { idleMs: 200 } }),
    ]);
    const sent: string[] = [];
    for (let turn = 0; turn < 6; turn++) {
      for (const [i, kind] of (
        ['prompt', 'tool_use', 'tool_use', 'session_summary'] as const
      ).entries()) {
        const event = makeEvent({
          kind,
          session_id: `s${turn}`,
          body: { type: 'text', content: `turn ${turn} step ${i}: edited src/webhooks/stripe.ts` },
        });
        const via = collectors[(turn + i) % collectors.length]!;
        expect((await send(via.port, 'POST', '/v1/events', { body: event })).status).toBe(200);
        sent.push(event.event_id);
      }
    }
    await waitFor('extraction of everything pending', async () => {
      const [row] = await query<{ n: string }>(schema, 'SELECT count(*) AS n FROM pending');
      return Number(row!.n) === 0 ? true : undefined;
    });
    const runs = await query<{ batch_size: number; status: string }>(
      schema,
      "SELECT batch_size, status FROM extraction_log WHERE status <> 'failed'",
    );
    const pendingSent = sent.length; // every kind here is buffered
    expect(runs.reduce((n, r) => n + r.batch_size, 0)).toBe(pendingSent);
    const records = await query<{ source_event_ids: string }>(
      schema,
      'SELECT source_event_ids FROM memory_records',
    );
    const cited = records.flatMap((r) => JSON.parse(r.source_event_ids) as string[]);
    expect(new Set(cited).size).toBe(cited.length);
  });

  it('refuses to start on an unreachable server, saying where without the password', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kl-pg-down-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const result = cli(['start', '--foreground'], {
      ...process.env,
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_PORT: '0',
      KIRO_LEARN_STORAGE_URL: 'postgres://kiro:hunter2secret@127.0.0.1:1/kiro',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /cannot open PostgreSQL at postgres:\/\/kiro:\*\*\*@127\.0\.0\.1:1\/kiro/,
    );
    expect(result.stderr + result.stdout).not.toContain('hunter2secret');
  });

  it('answers 503 at once when the pool is exhausted or a statement runs too long, and recovers', async () => {
    const schema = freshSchema();
    const c = await collectorOn(schema, {
      storage: { schema, poolSize: 1, acquireTimeoutMs: 300, statementTimeoutMs: 1500 },
    });
    // Another session holds the events table: the collector's one connection blocks on it.
    const blocker = new pg.Client({ connectionString: inject('postgresUrl') });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    await blocker.query(`SET search_path TO ${schema}`);
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    const slow = makeEvent();
    const waiting = makeEvent();
    // The first request takes the one connection and waits on the lock until its statement
    // times out; meanwhile a second finds no free connection. On a loaded machine the
    // collector's own background work may be what holds the connection (or waits on the
    // lock) instead: the first is then refused as unavailable, and the round is run again.
    const unavailable = { error: 'the database is unavailable; try again' };
    const waitingOnLock = async () =>
      (
        await blocker.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = '${schema}.events'::regclass`,
        )
      ).rows[0].n > 0;
    let timedOut!: Awaited<ReturnType<typeof send>>;
    for (let round = 0; round < 20; round++) {
      let settled = false;
      const first = send(c.port, 'POST', '/v1/events', { body: slow });
      void first.then(() => {
        settled = true;
      });
      while (!settled && !(await waitingOnLock())) await new Promise((r) => setTimeout(r, 10));
      if (!settled) {
        const second = await send(c.port, 'POST', '/v1/events', { body: waiting });
        expect(second.status).toBe(503); // no free connection within acquireTimeoutMs
        expect(second.json).toEqual(unavailable);
        expect(second.headers['retry-after']).toBe('1');
      }
      timedOut = await first;
      expect(timedOut.status).toBe(503);
      if (timedOut.json.error !== unavailable.error) break;
    }
    // Cancelled by statement_timeout.
    expect(timedOut.json).toEqual({ error: 'the database took too long; try again' });
    await blocker.query('ROLLBACK');
    // Nothing unacknowledged was stored; retried, both are.
    expect((await send(c.port, 'GET', `/v1/events/${slow.event_id}`)).status).toBe(404);
    for (const event of [slow, waiting]) {
      expect((await send(c.port, 'POST', '/v1/events', { body: event })).json).toMatchObject({
        stored: true,
      });
    }
    void newEventId;
    void NS;
  });
});
