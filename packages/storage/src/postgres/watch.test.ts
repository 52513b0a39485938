import { freshSchema } from '@kiro-learn/test-postgres';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { event, onCleanup } from '../../test/helpers.js';
import { openPostgresTemp } from '../../test/postgres.js';
import type { StoredEventNotice } from '../backend.js';
import { eventsChannel, noticePayloads } from './watch.js';

describe('PostgreSQL event feed', () => {
  it('tells a backend about events the others on its schema stored, and only those', async () => {
    const schema = freshSchema();
    const open = (s: string) => openPostgresTemp({ schema: s });
    const [a, b, elsewhere] = await Promise.all([open(schema), open(schema), open(freshSchema())]);
    const seen: StoredEventNotice[] = [];
    let done: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      done = resolve;
    });
    await b.watchEvents!((notice) => {
      seen.push(notice);
      if (seen.length === 2) done();
    });
    const first = event();
    const duplicate = { ...first };
    await a.putEvent(first);
    await a.putEvent(duplicate); // not stored: no notice
    await elsewhere.putEvent(event()); // another schema: not ours
    await b.putEvent(event()); // b's own: not told to b
    const second = event({ namespace: '/actor/bob/project/x/' });
    await a.putEvent(second);
    await arrived;
    // Notices arrive in commit order: anything wrongly announced would sit between these.
    expect(seen).toEqual([
      { eventId: first.event_id, namespace: first.namespace, event: first },
      { eventId: second.event_id, namespace: second.namespace, event: second },
    ]);
  });

  it('is announced per batch, and only while another backend watches', async () => {
    const schema = freshSchema();
    const open = () => openPostgresTemp({ schema });
    const [writer, watcher] = await Promise.all([open(), open()]);
    // A bystander on the channel, not a backend: it counts as no watcher, and sees every notice.
    const bystander = new pg.Client({ connectionString: inject('postgresUrl') });
    await bystander.connect();
    onCleanup(() => bystander.end());
    const payloads: string[] = [];
    bystander.on('notification', (message) => payloads.push(message.payload ?? ''));
    await bystander.query(`LISTEN "${eventsChannel(schema)}"`);

    // Nobody watches: nothing is announced.
    await Promise.all(Array.from({ length: 5 }, () => writer.putEvent(event())));
    const unwatch = await watcher.watchEvents!(() => {});
    // Someone does: a batch stored together is announced together, events inline.
    const batch = Array.from({ length: 6 }, () => event());
    await Promise.all(batch.map((e) => writer.putEvent(e)));
    await unwatch();
    await writer.putEvent(event()); // watched no more: not announced
    const marker = event();
    await watcher.watchEvents!(() => {});
    await writer.putEvent(marker);
    await expect.poll(() => payloads.some((p) => p.includes(marker.event_id))).toBe(true);

    const announced = payloads.flatMap(
      (p) => (JSON.parse(p) as { events: Array<{ event_id: string }> }).events,
    );
    // Two statements may be in flight at once: the batch's order among them is free.
    expect(
      announced
        .map((e) => e.event_id)
        .slice(0, -1)
        .sort(),
    ).toEqual(batch.map((e) => e.event_id).sort());
    expect(announced.at(-1)!.event_id).toBe(marker.event_id);
    // Fewer notices than events: the batcher groups what arrives together.
    expect(payloads.length).toBeLessThan(batch.length + 1);
  });

  it('keeps each notice under NOTIFY’s 8000 bytes, large events by id only', () => {
    const small = Array.from({ length: 200 }, (_, i) => ({
      eventId: `e${i}`,
      namespace: '/actor/a/project/p/',
      json: JSON.stringify({ text: 'x'.repeat(100) }),
      bytes: 115,
    }));
    const large = { eventId: 'big', namespace: '/actor/a/project/p/', json: 'y', bytes: 50_000 };
    const payloads = noticePayloads('kiro-learn/origin', [...small, large]);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const events = payloads.flatMap(
      (p) => (JSON.parse(p) as { events: Array<{ event_id: string; event?: unknown }> }).events,
    );
    expect(events.map((e) => e.event_id)).toEqual([...small.map((s) => s.eventId), 'big']);
    expect(events.at(-1)).toEqual({ event_id: 'big', namespace: '/actor/a/project/p/' });
    expect(events[0]!.event).toEqual({ text: 'x'.repeat(100) });
  });
});
