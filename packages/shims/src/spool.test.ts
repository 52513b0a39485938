import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { drainSpool, hasSpooled, spoolEvent, spoolStatus } from './spool.js';

const home = () => mkdtempSync(join(tmpdir(), 'kl-spool-'));
const event = (n: number, pad = 0) =>
  ({ event_id: `E${n}`, body: { type: 'text', content: 'x'.repeat(pad) } }) as unknown as Event;

describe('spool', () => {
  it('replays events in the order they were spooled, then is empty', async () => {
    const dir = home();
    for (let n = 1; n <= 5; n++) spoolEvent(dir, event(n));
    const seen: string[] = [];
    const result = await drainSpool(dir, async (e) => {
      seen.push(e.event_id);
      return 'delivered';
    });
    expect(seen).toEqual(['E1', 'E2', 'E3', 'E4', 'E5']);
    expect(result).toEqual({ delivered: 5, rejected: 0, remaining: 0 });
    expect(hasSpooled(dir)).toBe(false);
  });

  it('keeps the undelivered rest in order, ahead of events spooled meanwhile', async () => {
    const dir = home();
    for (let n = 1; n <= 4; n++) spoolEvent(dir, event(n));
    let calls = 0;
    const first = await drainSpool(dir, async () => {
      calls++;
      if (calls === 3) {
        spoolEvent(dir, event(99)); // another hook, while the collector goes away
        return 'retry';
      }
      return 'delivered';
    });
    expect(first).toEqual({ delivered: 2, rejected: 0, remaining: 3 });
    const seen: string[] = [];
    await drainSpool(dir, async (e) => {
      seen.push(e.event_id);
      return 'delivered';
    });
    expect(seen).toEqual(['E3', 'E4', 'E99']);
  });

  it('keeps the order when a later claim gets an earlier time (same millisecond, clock set back)', async () => {
    const dir = home();
    spoolEvent(dir, event(1));
    // An earlier replay claimed event 1 and stopped; its claim's name is "in the future".
    renameSync(
      join(dir, 'spool', 'pending.jsonl'),
      join(dir, 'spool', 'ZZZZZZZZZZ0000000000000000.claim.jsonl'),
    );
    spoolEvent(dir, event(2));
    const seen: string[] = [];
    await drainSpool(dir, async (e) => {
      seen.push(e.event_id);
      return 'delivered';
    });
    expect(seen).toEqual(['E1', 'E2']);
  });

  it('drops events the collector refuses for good, and stops at the event limit', async () => {
    const dir = home();
    for (let n = 1; n <= 4; n++) spoolEvent(dir, event(n));
    const result = await drainSpool(
      dir,
      async (e) => (e.event_id === 'E1' ? 'rejected' : 'delivered'),
      {
        maxEvents: 3,
      },
    );
    expect(result).toEqual({ delivered: 2, rejected: 1, remaining: 1 });
  });

  it('stays bounded: the oldest events go and are counted', () => {
    const dir = home();
    for (let n = 1; n <= 10; n++) spoolEvent(dir, event(n, 900), 5000);
    const status = spoolStatus(dir);
    expect(status.pending).toBeLessThan(10);
    expect(status.pending + status.dropped).toBe(10);
  });

  it('lets one replayer at a time drain', async () => {
    const dir = home();
    spoolEvent(dir, event(1));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = drainSpool(dir, async () => {
      await gate;
      return 'delivered';
    });
    const second = await drainSpool(dir, async () => 'delivered');
    expect(second.delivered).toBe(0);
    release();
    expect((await slow).delivered).toBe(1);
  });
});
