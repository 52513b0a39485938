import { connect } from 'node:net';
import { LIMITS, newEventId, newRecord } from '@kiro-learn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, NS, type Running, send, startCollector } from './helpers.js';

// Hostile and unusual input at the HTTP edge: every refusal is a JSON {error, details},
// nothing is stored that could later break extraction, and no answer is lost to a reset.

let c: Running;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(async () => {
  await c.close();
});

/** Raw bytes to the collector; resolves with everything it answers until it closes. */
function raw(bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(c.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.end(bytes);
  });
}

function record(overrides: Record<string, unknown> = {}) {
  const base = newRecord({
    namespace: NS,
    strategy: 'mcp_observation',
    title: 'Webhook retries',
    summary: 'Stripe retries webhooks for three days.',
  });
  return { ...base, ...overrides };
}

describe('nesting depth', () => {
  it(`refuses a body nested deeper than ${LIMITS.jsonDepth} levels with 400, before parsing it`, async () => {
    for (const depth of [LIMITS.jsonDepth, 5_000, 500_000]) {
      const data = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const json = `{"event_id":"${newEventId()}","body":{"type":"json","data":${data}}}`;
      const r = await send(c.port, 'POST', '/v1/events', { body: json });
      expect(r.status).toBe(400);
      expect(r.json.error).toBe(`request body nests deeper than ${LIMITS.jsonDepth} levels`);
    }
  });

  it('stores an event just under the limit, and it reads back', async () => {
    // The event and its body are two levels; `data` may nest the rest.
    const depth = LIMITS.jsonDepth - 2;
    let data: unknown = 'leaf';
    for (let i = 0; i < depth; i++) data = i % 2 ? [data] : { k: data };
    const event = makeEvent({ body: { type: 'json', data } });
    expect((await send(c.port, 'POST', '/v1/events', { body: event })).status).toBe(200);
    const back = await send(c.port, 'GET', `/v1/events/${event.event_id}`);
    expect(back.json.body).toEqual(event.body);
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const event = makeEvent({ body: { type: 'text', content: '[{'.repeat(10_000) } });
    expect((await send(c.port, 'POST', '/v1/events', { body: event })).status).toBe(200);
  });
});

describe('a body that scrubbing lengthens past the limit', () => {
  it('is stored cut back under the limit (marked as truncated), not refused or stored over it', async () => {
    // Each short password grows into a longer redaction: well over the limit once scrubbed.
    const line = 'export DB_PASSWORD=hunter22 # staging; ';
    const content = line.repeat(Math.floor((LIMITS.bodyBytes - 100) / line.length));
    const event = makeEvent({ body: { type: 'text', content } });
    const posted = await send(c.port, 'POST', '/v1/events', { body: event });
    expect(posted.status).toBe(200);
    expect(posted.json.stored).toBe(true);
    const stored = await send(c.port, 'GET', `/v1/events/${event.event_id}`);
    const body = stored.json.body as { type: 'text'; content: string };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(LIMITS.bodyBytes);
    expect(body.content).toContain('[REDACTED:password]');
    expect(body.content).not.toContain('hunter22');
    expect(body.content.endsWith(' [truncated by kiro-learn]')).toBe(true);
  });
});

describe('namespaces and ids', () => {
  it('keeps apart namespaces that differ only in unpaired surrogates: both are refused', async () => {
    const a = makeEvent({ namespace: '/actor/dev/project/app\uD800/' });
    const b = makeEvent({ namespace: '/actor/dev/project/app\uDBFF/' });
    for (const event of [a, b]) {
      const r = await send(c.port, 'POST', '/v1/events', { body: event });
      expect(r.status).toBe(400);
      expect(r.json.details).toEqual([
        expect.stringMatching(
          /^namespace: contains an unpaired surrogate \(U\+D[8B][0F]{2}\) at index 22/,
        ),
      ]);
    }
    const list = await send(
      c.port,
      'GET',
      `/v1/events?namespace=${encodeURIComponent('/actor/dev/project/app')}%ED%A0%80%2F`,
    );
    expect(list.status).toBe(400);
  });

  it('refuses NUL, control and bidi characters in namespaces and ids, saying which', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { namespace: '/actor/dev/project/a\u202Eb/' },
        'namespace: contains a bidirectional control (U+202E)',
      ],
      [{ session_id: 's\u0000' }, 'session_id: contains NUL (U+0000)'],
      [{ actor_id: 'dev\u001b[31m' }, 'actor_id: contains a control character (U+001B)'],
    ];
    for (const [patch, message] of cases) {
      const r = await send(c.port, 'POST', '/v1/events', { body: { ...makeEvent(), ...patch } });
      expect(r.status).toBe(400);
      expect(r.json.details[0]).toContain(message);
    }
    const saved = await send(c.port, 'POST', '/v1/memories', {
      body: record({ strategy: 'x\u2066y' }),
    });
    expect(saved.status).toBe(400);
    expect(saved.json.details[0]).toContain('strategy: contains a bidirectional control');
  });
});

describe('POST /v1/memories with an existing record_id', () => {
  it('answers 409 and leaves the stored record, and its project, as they were', async () => {
    const first = record({ title: 'The original' });
    expect((await send(c.port, 'POST', '/v1/memories', { body: first })).status).toBe(200);
    for (const namespace of ['/actor/eve/project/other/', NS]) {
      const again = await send(c.port, 'POST', '/v1/memories', {
        body: { ...first, namespace, title: 'Overwritten' },
      });
      expect(again.status).toBe(409);
      expect(again.json).toEqual({
        error: expect.stringMatching(/already exists; use PATCH/),
        details: { record_id: first.record_id },
      });
    }
    const stored = await send(c.port, 'GET', `/v1/memories/${first.record_id}`);
    expect(stored.json).toMatchObject({ namespace: NS, title: 'The original' });
  });
});

describe('record times', () => {
  it('stores and returns times normalised to UTC, so a +02:00 time sorts right', async () => {
    const ns = '/actor/dev/project/utc-sorting/';
    // 01:30+02:00 is 23:30 UTC the day before: older than the record at 00:00Z.
    const older = record({ namespace: ns, created_at: '2026-01-01T01:30:00+02:00' });
    const newer = record({ namespace: ns, created_at: '2026-01-01T00:00:00Z' });
    for (const r of [older, newer]) {
      expect((await send(c.port, 'POST', '/v1/memories', { body: r })).status).toBe(200);
    }
    const list = await send(c.port, 'GET', `/v1/memories?namespace=${encodeURIComponent(ns)}`);
    expect(list.json.items.map((r: { record_id: string }) => r.record_id)).toEqual([
      newer.record_id,
      older.record_id,
    ]);
    expect(list.json.items.map((r: { created_at: string }) => r.created_at)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2025-12-31T23:30:00.000Z',
    ]);
    const event = makeEvent({ valid_time: '2026-01-01T05:00:00-05:00' });
    await send(c.port, 'POST', '/v1/events', { body: event });
    const back = await send(c.port, 'GET', `/v1/events/${event.event_id}`);
    expect(back.json.valid_time).toBe('2026-01-01T10:00:00.000Z');
  });
});

describe('bytes that are not a JSON document', () => {
  it('refuses invalid UTF-8 with 400 rather than storing replacement characters', async () => {
    const event = JSON.stringify(makeEvent({ body: { type: 'text', content: 'AB' } }));
    const bytes = Buffer.from(event);
    const at = bytes.indexOf('AB');
    bytes[at] = 0xc3; // a lead byte followed by "B": not UTF-8
    const r = await send(c.port, 'POST', '/v1/events', { body: bytes });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: 'request body is not valid UTF-8',
      details: expect.stringMatching(/send UTF-8/),
    });
  });

  it('answers 431 for oversized headers with the JSON error shape', async () => {
    const answer = await raw(
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'request headers are too large',
      details: expect.stringMatching(/HPE_HEADER_OVERFLOW/),
    });
  });

  it('answers a malformed request with a JSON 400', async () => {
    for (const request of [
      'NOT A REQUEST\r\n\r\n',
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nBad Header: x\r\n\r\n`,
      `POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
      `POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nContent-Length: abc\r\n\r\n{}`,
    ]) {
      const answer = await raw(request);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body).toEqual({ error: 'malformed HTTP request', details: expect.any(String) });
    }
  });
});

it('refuses a request without a usable Host with the JSON error shape', async () => {
  for (const request of [
    'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n',
    'GET /healthz HTTP/1.0\r\n\r\n',
    'GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
  ]) {
    const answer = await raw(request);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'malformed HTTP request',
      details: expect.stringMatching(/host header|Invalid URL/i),
    });
  }
});

describe('an oversized body', () => {
  /**
   * A client that writes its whole request before it reads (as curl and most HTTP
   * libraries do): it must find the 413 waiting, not a connection reset.
   */
  function post(body: Buffer, chunked: boolean): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(c.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const read = () => {
        socket.on('data', (d: Buffer) => chunks.push(d));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').split('\r\n')[0]!));
      };
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`;
      socket.write(
        `POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nContent-Type: application/json\r\nConnection: close\r\n${length}\r\n\r\n`,
      );
      let at = 0;
      const pump = () => {
        while (at < body.length) {
          const piece = body.subarray(at, at + 64 * 1024);
          at += piece.length;
          const framed = chunked
            ? Buffer.concat([
                Buffer.from(`${piece.length.toString(16)}\r\n`),
                piece,
                Buffer.from('\r\n'),
              ])
            : piece;
          if (!socket.write(framed)) return void socket.once('drain', pump);
        }
        socket.write(chunked ? '0\r\n\r\n' : '', () => read());
      };
      pump();
    });
  }

  it('is answered with 413, never a reset, whether its length is declared or chunked', async () => {
    const body = Buffer.alloc(2 * LIMITS.requestBytes, 'x');
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await post(body, false));
      answers.push(await post(body, true));
    }
    expect(answers).toEqual(Array(10).fill('HTTP/1.1 413 Payload Too Large'));
  });
});
