// Your data, through the real HTTP API over real SQLite files: forget without trace,
// export → import byte for byte, idempotent and line-by-line import, online backup under
// load, pause and ignore at the collector.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryRecord, newEventId, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { exportHeader, makeEvent, NS, type Running, send, startCollector } from './helpers.js';

const OTHER = '/actor/dev/project/billing/';
const running: Running[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function collector(...args: Parameters<typeof startCollector>): Promise<Running> {
  const r = await startCollector(...args);
  running.push(r);
  return r;
}

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kl-data-'));
  dirs.push(dir);
  return dir;
}

function record(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    ...newRecord({
      namespace: NS,
      strategy: 'builtin',
      title: 'Webhook signatures',
      summary: 'Stripe webhook signatures need the raw body.',
      facts: ['verify with the raw body'],
      concepts: ['stripe'],
      files_touched: ['src/webhooks.ts'],
    }),
    ...overrides,
  };
}

/** Bytes of the database file and its WAL. */
const fileHas = (dbPath: string, needle: string) =>
  ['', '-wal'].some(
    (s) => existsSync(dbPath + s) && readFileSync(dbPath + s).includes(Buffer.from(needle)),
  );

async function seed(r: Running, count = 40) {
  const events = [];
  for (let i = 0; i < count; i++) {
    const event = makeEvent({
      namespace: i % 2 ? NS : OTHER,
      session_id: `s${i % 3}`,
      // Key order, unicode and numbers as a hook sends them: the export must keep them.
      body: { type: 'json', data: { i, text: `run ${i} — ünïcode ✓`, nested: { z: 1, a: [1.5] } } },
    });
    expect((await send(r.port, 'POST', '/v1/events', { body: event })).status).toBe(200);
    events.push(event);
  }
  const records = [record(), record({ namespace: OTHER, title: 'Billing cron' })];
  for (const rec of records) {
    expect((await send(r.port, 'POST', '/v1/memories', { body: rec })).status).toBe(200);
  }
  return { events, records };
}

describe('export and import', () => {
  it('round-trips every event byte for byte and every record into an empty data dir; a second import adds nothing', async () => {
    const source = await collector();
    const { events, records } = await seed(source);
    const exported = await send(source.port, 'GET', '/v1/export');
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = exported.text.trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({
      type: 'header',
      format: 'kiro-learn-export',
      version: 1,
      tool_version: '9.9.9',
      counts: { events: 40, records: 2 },
    });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: 'end', events: 40, records: 2 });

    const target = await collector();
    const first = await send(target.port, 'POST', '/v1/import', {
      body: exported.text,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      added: { events: 40, records: 2 },
      skipped: { events: 0, records: 0 },
      rejected_total: 0,
      complete: true,
    });
    const sourceDb = await openSqliteStorage({ path: `${source.dbPath}` });
    try {
      for (const e of events) {
        const original = await send(source.port, 'GET', `/v1/events/${e.event_id}`);
        const copy = await send(target.port, 'GET', `/v1/events/${e.event_id}`);
        expect(copy.text).toBe(original.text);
      }
    } finally {
      await sourceDb.close();
    }
    for (const rec of records) {
      const copy = await send(target.port, 'GET', `/v1/memories/${rec.record_id}`);
      expect(copy.json).toEqual(rec);
    }
    // The export of the copy is the same file, but for its time stamp.
    const again = await send(target.port, 'GET', '/v1/export');
    expect(again.text.split('\n').slice(1)).toEqual(exported.text.split('\n').slice(1));

    const second = await send(target.port, 'POST', '/v1/import', {
      body: exported.text,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(second.json).toMatchObject({
      added: { events: 0, records: 0 },
      skipped: { events: 40, records: 2 },
    });
    expect((await send(target.port, 'GET', '/v1/stats')).json.events.total).toBe(40);
  });

  it('exports one project only', async () => {
    const source = await collector();
    await seed(source, 10);
    const exported = await send(
      source.port,
      'GET',
      `/v1/export?namespace=${encodeURIComponent(NS)}`,
    );
    const lines = exported.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].counts).toEqual({ events: 5, records: 1 });
    expect(lines.filter((l) => l.type === 'event').every((l) => l.event.namespace === NS)).toBe(
      true,
    );
  });

  it('reports a corrupt line and a cut-off last line, skips them, and imports the rest', async () => {
    const source = await collector();
    await seed(source, 6);
    const lines = (await send(source.port, 'GET', '/v1/export')).text.trimEnd().split('\n');
    const bad = makeEvent({ event_id: 'not-a-ulid' });
    const broken = [
      lines[0],
      lines[1],
      '{"type":"event","event":{"event_id": oops',
      JSON.stringify({ type: 'event', event: bad }),
      ...lines.slice(2, -1),
      lines.at(-1)!.slice(0, 10), // cut off mid-line, no end line
    ].join('\n');
    const target = await collector();
    const reply = await send(target.port, 'POST', '/v1/import', {
      body: broken,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.added).toEqual({ events: 6, records: 2 });
    expect(reply.json.complete).toBe(false);
    expect(reply.json.rejected.map((r: { line: number }) => r.line)).toEqual([3, 4, 12]);
    expect(reply.json.rejected[1].reason).toMatch(/event_id/);
    expect(reply.json.rejected[0].reason).toMatch(/corrupt or cut off/);
    expect((await send(target.port, 'GET', '/v1/stats')).json.events.total).toBe(6);
  });

  it('refuses deep metadata and far-past or far-future times line by line, in plain words', async () => {
    const r = await collector();
    const header = JSON.stringify(exportHeader({ events: 4, records: 3 }));
    // Written as text: JSON.stringify itself cannot serialize this deep a value.
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const good = makeEvent();
    const lines = [
      header,
      JSON.stringify({ type: 'record', record: record({ metadata: { deep: 'DEEP' } }) }).replace(
        '"DEEP"',
        deep,
      ),
      JSON.stringify({
        type: 'event',
        received_at: '9999-12-31T00:00:00.000Z',
        event: makeEvent(),
      }),
      JSON.stringify({
        type: 'event',
        event: makeEvent({ valid_time: '1900-01-01T00:00:00.000Z' }),
      }),
      JSON.stringify({
        type: 'record',
        record: record({ created_at: '9999-01-01T00:00:00.000Z' }),
      }),
      JSON.stringify({ type: 'event', received_at: new Date().toISOString(), event: good }),
      JSON.stringify({ type: 'record', record: record({ source_event_ids: [good.event_id] }) }),
      JSON.stringify({ type: 'end', events: 4, records: 3 }),
    ];
    const reply = await send(r.port, 'POST', '/v1/import', {
      body: `${lines.join('\n')}\n`,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.added).toEqual({ events: 1, records: 1 });
    expect(reply.json.rejected).toEqual([
      {
        line: 2,
        reason: 'invalid memory record: metadata: metadata must nest at most 127 levels deep',
      },
      {
        line: 3,
        reason:
          "received_at 9999-12-31T00:00:00.000Z is in the future (more than a day past this machine's clock)",
      },
      {
        line: 4,
        reason:
          'valid_time 1900-01-01T00:00:00.000Z is before 2000-01-01: the clock that wrote it was wrong',
      },
      {
        line: 5,
        reason:
          "created_at 9999-01-01T00:00:00.000Z is in the future (more than a day past this machine's clock)",
      },
    ]);
    expect((await send(r.port, 'GET', '/v1/stats')).json.events.total).toBe(1);
  });

  it('scrubs secrets on import like any write', async () => {
    const source = await collector();
    const header = JSON.stringify(exportHeader({ events: 1, records: 0 }));
    const event = makeEvent({
      body: { type: 'text', content: 'key AKIAIOSFODNN7EXAMPLE here' },
    });
    const reply = await send(source.port, 'POST', '/v1/import', {
      body: `${header}\n${JSON.stringify({ type: 'event', event })}\n`,
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(reply.json.added.events).toBe(1);
    const stored = await send(source.port, 'GET', `/v1/events/${event.event_id}`);
    expect(stored.text).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('refuses a file that is not an export, and a newer format, with a clear error', async () => {
    const r = await collector();
    const notExport = await send(r.port, 'POST', '/v1/import', {
      body: '{"hello":1}\n',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(notExport.status).toBe(400);
    expect(notExport.json.error).toMatch(/not a kiro-learn export/);
    const newer = await send(r.port, 'POST', '/v1/import', {
      body: '{"type":"header","format":"kiro-learn-export","version":99}\n',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(newer.status).toBe(400);
    expect(newer.json.error).toMatch(/upgrade kiro-learn/);
  });
});

describe('forget', () => {
  it('forgets a project: its text leaves the database file and WAL, the spool and the log; others stay', async () => {
    const r = await collector();
    await seed(r, 20);
    const secret = `zq${newEventId().toLowerCase()}`;
    const e = makeEvent({ body: { type: 'text', content: `token ${secret}` } });
    await send(r.port, 'POST', '/v1/events', { body: e });
    await send(r.port, 'POST', '/v1/memories', {
      body: record({ title: `About ${secret}`, source_event_ids: [e.event_id] }),
    });
    // A spooled event of the project (the collector was down when it fired).
    mkdirSync(join(r.home, 'spool'), { recursive: true });
    writeFileSync(
      join(r.home, 'spool', 'pending.jsonl'),
      `${JSON.stringify(makeEvent({ body: { type: 'text', content: `spooled ${secret}` } }))}\n${JSON.stringify(makeEvent({ namespace: OTHER }))}\n`,
    );
    expect(fileHas(r.dbPath, secret)).toBe(true);

    const preview = await send(r.port, 'POST', '/v1/forget', {
      body: { namespace: NS, dry_run: true },
    });
    expect(preview.json).toMatchObject({ dry_run: true, counts: { events: 11, records: 2 } });
    const done = await send(r.port, 'POST', '/v1/forget', { body: { namespace: NS } });
    expect(done.json.counts).toMatchObject({ events: 11, records: 2, spool: 1 });

    expect(fileHas(r.dbPath, secret)).toBe(false);
    expect(readFileSync(join(r.home, 'spool', 'pending.jsonl'), 'utf8')).not.toContain(secret);
    expect(readFileSync(join(r.home, 'spool', 'pending.jsonl'), 'utf8')).toContain(OTHER);
    const stats = (await send(r.port, 'GET', '/v1/stats')).json;
    expect(stats.projects.map((p: { namespace: string }) => p.namespace)).toEqual([OTHER]);
  });

  it('forgets a project under its earlier ids too: every namespace whose events name its directory', async () => {
    const r = await collector();
    const dir = temp();
    const source = {
      surface: 'kiro-cli' as const,
      version: '1',
      client_id: 't',
      project_path: dir,
    };
    // Captured before and after the repository gained a remote (the project id changed).
    const before = '/actor/dev/project/app-1a2b3c4d/';
    const after = '/actor/dev/project/app-9f8e7d6c/';
    const secret = `zq${newEventId().toLowerCase()}`;
    const old = makeEvent({
      namespace: before,
      source,
      body: { type: 'text', content: `key ${secret}` },
    });
    await send(r.port, 'POST', '/v1/events', { body: old });
    await send(r.port, 'POST', '/v1/memories', {
      body: record({
        namespace: before,
        summary: `key ${secret}`,
        source_event_ids: [old.event_id],
      }),
    });
    await send(r.port, 'POST', '/v1/events', { body: makeEvent({ namespace: after, source }) });
    // Another project in a directory whose name starts the same: kept.
    const sibling = makeEvent({
      namespace: OTHER,
      source: { ...source, project_path: `${dir}-old` },
    });
    await send(r.port, 'POST', '/v1/events', { body: sibling });

    const preview = await send(r.port, 'POST', '/v1/forget', {
      body: { namespace: after, directory: dir, dry_run: true },
    });
    expect(preview.json).toMatchObject({
      dry_run: true,
      namespaces: [after, before],
      counts: { events: 2, records: 1 },
    });
    const done = await send(r.port, 'POST', '/v1/forget', {
      body: { namespace: after, directory: dir },
    });
    expect(done.json).toMatchObject({
      namespaces: [after, before],
      counts: { events: 2, records: 1 },
    });
    expect(fileHas(r.dbPath, secret)).toBe(false);
    const stats = (await send(r.port, 'GET', '/v1/stats')).json;
    expect(stats.projects.map((p: { namespace: string }) => p.namespace)).toEqual([OTHER]);
  });

  it('rewrites the copies of the database it made that hold the scope, says which, and leaves the rest', async () => {
    const r = await collector();
    const secret = `zq${newEventId().toLowerCase()}`;
    await seed(r, 10);
    const e = makeEvent({ body: { type: 'text', content: `token ${secret}` } });
    await send(r.port, 'POST', '/v1/events', { body: e });
    const daily = join(r.home, 'backups', 'daily-20260101T030000Z.db');
    expect((await send(r.port, 'POST', '/v1/backup', { body: { path: daily } })).status).toBe(200);
    const manual = (await send(r.port, 'POST', '/v1/backup', { body: {} })).json.path as string;
    // A copy of another project only: it holds nothing of the scope and stays as it is.
    const clean = await collector();
    await send(clean.port, 'POST', '/v1/events', { body: makeEvent({ namespace: OTHER }) });
    const untouched = join(r.home, 'backups', 'daily-20251231T030000Z.db');
    await send(clean.port, 'POST', '/v1/backup', { body: { path: untouched } });
    const untouchedBytes = readFileSync(untouched);
    // Something that is not a database, under a backup's name: deleted, it cannot be rewritten.
    const broken = join(r.home, 'backups', 'daily-20251230T030000Z.db');
    writeFileSync(broken, `not a database ${secret}`);
    for (const file of [daily, manual]) expect(readFileSync(file).includes(secret)).toBe(true);

    const preview = await send(r.port, 'POST', '/v1/forget', {
      body: { namespace: NS, dry_run: true },
    });
    expect(
      preview.json.backups.map((b: { file: string; action: string }) => [b.file, b.action]),
    ).toEqual([
      [join('backups', 'daily-20251230T030000Z.db'), 'holds'],
      [join('backups', 'daily-20260101T030000Z.db'), 'holds'],
      [join('backups', manual.split('/').at(-1)!), 'holds'],
    ]);
    expect(readFileSync(daily).includes(secret)).toBe(true);

    const done = await send(r.port, 'POST', '/v1/forget', { body: { namespace: NS } });
    expect(done.json.backups).toMatchObject([
      { file: join('backups', 'daily-20251230T030000Z.db'), action: 'deleted' },
      {
        file: join('backups', 'daily-20260101T030000Z.db'),
        action: 'rewritten',
        counts: { events: 6 },
      },
      { file: join('backups', manual.split('/').at(-1)!), action: 'rewritten' },
    ]);
    for (const file of [daily, manual]) {
      expect(readFileSync(file).includes(secret)).toBe(false);
      const copy = await openSqliteStorage({ path: file, readOnly: true });
      try {
        expect((await copy.stats()).projects.map((p) => p.namespace)).toEqual([OTHER]);
      } finally {
        await copy.close();
      }
    }
    expect(existsSync(broken)).toBe(false);
    expect(readFileSync(untouched).equals(untouchedBytes)).toBe(true);
  });

  it('forgets one session and the records made from it', async () => {
    const r = await collector();
    const { events } = await seed(r, 12);
    const s0 = events.filter((e) => e.session_id === 's0');
    await send(r.port, 'POST', '/v1/memories', {
      body: record({ title: 'from s0', source_event_ids: [s0[0]!.event_id] }),
    });
    const done = await send(r.port, 'POST', '/v1/forget', { body: { session: 's0' } });
    expect(done.json.counts).toMatchObject({ events: s0.length, records: 1 });
    for (const e of s0)
      expect((await send(r.port, 'GET', `/v1/events/${e.event_id}`)).status).toBe(404);
    expect((await send(r.port, 'GET', '/v1/stats')).json.events.total).toBe(12 - s0.length);
  });

  it('refuses a request that names no scope or two', async () => {
    const r = await collector();
    for (const body of [{}, { all: true, session: 's' }]) {
      const reply = await send(r.port, 'POST', '/v1/forget', { body });
      expect(reply.status).toBe(400);
      expect(reply.json.details.join(' ')).toMatch(/exactly one of/);
    }
  });
});

describe('backup', () => {
  it('is a valid database with every event acknowledged before it, while 8 clients write', async () => {
    const r = await collector();
    const acknowledged: string[] = [];
    let writing = true;
    const clients = Array.from({ length: 8 }, async () => {
      while (writing) {
        const e = makeEvent();
        const reply = await send(r.port, 'POST', '/v1/events', { body: e });
        if (reply.status === 200) acknowledged.push(e.event_id);
      }
    });
    while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = [...acknowledged];
    const path = join(temp(), 'copy.db');
    const reply = await send(r.port, 'POST', '/v1/backup', { body: { path } }).finally(() => {
      writing = false;
    });
    await Promise.all(clients);
    console.log(reply.status, reply.text);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ path });
    const copy = await openSqliteStorage({ path });
    try {
      const found = await copy.getEvents(before);
      expect(found.map((e) => e.event_id)).toEqual(before);
    } finally {
      await copy.close();
    }
  });
});

describe('backup over an existing file', () => {
  it('is refused with 409 and the file kept, unless the request says force', async () => {
    const r = await collector();
    await send(r.port, 'POST', '/v1/events', { body: makeEvent() });
    const path = join(temp(), 'notes.db');
    writeFileSync(path, 'not a backup: my own file');
    const refused = await send(r.port, 'POST', '/v1/backup', { body: { path } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: 'the backup was not written' });
    expect(refused.json.details[0]).toMatch(/notes\.db exists.*"force": true/);
    expect(readFileSync(path, 'utf8')).toBe('not a backup: my own file');
    const forced = await send(r.port, 'POST', '/v1/backup', { body: { path, force: true } });
    expect(forced.status).toBe(200);
    const copy = await openSqliteStorage({ path, readOnly: true });
    try {
      expect((await copy.stats()).events.total).toBe(1);
    } finally {
      await copy.close();
    }
    const itself = await send(r.port, 'POST', '/v1/backup', {
      body: { path: r.dbPath, force: true },
    });
    expect(itself.status).toBe(409);
    expect(itself.json.details[0]).toMatch(/is the database itself/);
  });
});

describe('capture gate at the collector', () => {
  it('drops events of a paused project and returns no context; other projects go on', async () => {
    const r = await collector();
    await send(r.port, 'POST', '/v1/memories', {
      body: record({ title: 'webhook retries', summary: 'webhook retries use backoff' }),
    });
    const paused = await send(r.port, 'POST', '/v1/pause', { body: { namespace: NS, for: '1h' } });
    expect(paused.json.paused).toMatchObject({ scope: NS });
    const prompt = makeEvent({
      kind: 'prompt',
      body: { type: 'text', content: 'how do webhook retries work?' },
    });
    const reply = await send(r.port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect(reply.json).toEqual({ event_id: prompt.event_id, stored: false, skipped: 'paused' });
    const other = await send(r.port, 'POST', '/v1/events', {
      body: makeEvent({ namespace: OTHER }),
    });
    expect(other.json.stored).toBe(true);
    expect((await send(r.port, 'GET', '/v1/status')).json.paused).toEqual([
      expect.objectContaining({ scope: NS }),
    ]);

    await send(r.port, 'POST', '/v1/resume', { body: { namespace: NS } });
    const after = await send(r.port, 'POST', '/v1/events?retrieve=true', {
      body: { ...prompt, event_id: newEventId() },
    });
    expect(after.json.stored).toBe(true);
    expect(after.json.retrieval.context).toContain('webhook retries');
  });

  it('drops events from a repository with .kiro-learn-ignore at its root, and from excluded directories', async () => {
    const base = temp();
    const ignored = join(base, 'client-repo');
    const excluded = join(base, 'scratch', 'play');
    mkdirSync(ignored, { recursive: true });
    mkdirSync(excluded, { recursive: true });
    writeFileSync(join(ignored, '.kiro-learn-ignore'), '');
    const r = await collector({ capture: { exclude: [join(base, 'scratch', '**')] } });
    const from = (path: string) =>
      makeEvent({
        source: { surface: 'claude-code', version: '1', client_id: 't', project_path: path },
      });
    expect((await send(r.port, 'POST', '/v1/events', { body: from(ignored) })).json.skipped).toBe(
      'ignored',
    );
    expect((await send(r.port, 'POST', '/v1/events', { body: from(excluded) })).json.skipped).toBe(
      'excluded',
    );
    expect((await send(r.port, 'POST', '/v1/events', { body: from(base) })).json.stored).toBe(true);
  });
});
