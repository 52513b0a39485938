import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, type Running, send, startCollector } from './helpers.js';

let c: Running;
beforeAll(async () => {
  c = await startCollector();
});
afterAll(() => c.close());

async function stored(eventId: string): Promise<boolean> {
  return (await send(c.port, 'GET', `/v1/events/${eventId}`)).status === 200;
}

describe('local security', () => {
  it('refuses a cross-origin POST and stores nothing', async () => {
    const event = makeEvent();
    const r = await send(c.port, 'POST', '/v1/events', {
      body: event,
      headers: { Origin: 'https://evil.example' },
    });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatch(/cross-origin/);
    expect(await stored(event.event_id)).toBe(false);
  });

  it('refuses an opaque origin and a cross-site fetch', async () => {
    const nullOrigin = await send(c.port, 'POST', '/v1/memories', {
      body: {},
      headers: { Origin: 'null' },
    });
    expect(nullOrigin.status).toBe(403);
    const crossSite = await send(c.port, 'GET', '/v1/memories', {
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });

  it('accepts its own origin', async () => {
    const r = await send(c.port, 'POST', '/v1/events', {
      body: makeEvent(),
      headers: { Origin: `http://localhost:${c.port}` },
    });
    expect(r.status).toBe(200);
  });

  it.each([
    ['a rebinding host name', (port: number) => `evil.example:${port}`],
    ['a loopback name on another port', (port: number) => `127.0.0.1:${port + 1}`],
    ['no port', () => 'localhost'],
  ])('refuses %s in Host', async (_what, host) => {
    const event = makeEvent();
    const r = await send(c.port, 'POST', '/v1/events', {
      body: event,
      headers: { Host: host(c.port) },
    });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatch(/Host/);
    expect(await stored(event.event_id)).toBe(false);
  });

  it('refuses a POST that is not application/json with 415', async () => {
    const event = makeEvent();
    const plain = await send(c.port, 'POST', '/v1/events', {
      body: JSON.stringify(event),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const form = await send(c.port, 'POST', '/v1/memories', {
      body: 'a=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(await stored(event.event_id)).toBe(false);
  });
});

describe('bearer token', () => {
  it('requires the token on every route but the health probe', async () => {
    const token = 'a-long-random-token-value-123';
    const guarded = await startCollector({ token });
    try {
      expect((await send(guarded.port, 'GET', '/healthz')).status).toBe(200);
      const without = await send(guarded.port, 'POST', '/v1/events', { body: makeEvent() });
      expect(without.status).toBe(401);
      expect(without.headers['www-authenticate']).toBe('Bearer');
      const wrong = await send(guarded.port, 'GET', '/v1/memories', {
        headers: { Authorization: 'Bearer a-long-random-token-value-124' },
      });
      expect(wrong.status).toBe(401);
      const right = await send(guarded.port, 'POST', '/v1/events', {
        body: makeEvent(),
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(right.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
