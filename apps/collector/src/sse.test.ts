import { describe, expect, it } from 'vitest';
import type { Activity } from './activity.js';
import { SseFanout } from './sse.js';

const extraction = (n: number): Activity => ({
  type: 'extraction',
  extraction: {
    namespace: '/actor/dev/project/demo/',
    extractor: 'builtin',
    status: 'ok',
    batchSize: n,
    records: 1,
    attempts: 1,
    durationMs: 1,
    startedAt: new Date(0).toISOString(),
  },
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of body) text += decoder.decode(chunk);
  return text;
}

describe('SseFanout', () => {
  it('delivers every activity to a reading client, in order, and ends streams on closeAll', async () => {
    const fanout = new SseFanout();
    const client = fanout.open()!;
    const read = readAll(client.body);
    client.comment('connected');
    for (let i = 1; i <= 3; i++) fanout.publish(extraction(i));
    await tick();
    fanout.closeAll();
    const text = await read;
    expect(text.startsWith(': connected\n\n')).toBe(true);
    expect([...text.matchAll(/"batchSize":(\d)/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
    expect(text).toMatch(/event: extraction\ndata: \{.*\}\nid: 1\n\n/);
    expect(fanout.size).toBe(0);
  });

  it('drops a client that stops reading once its queue passes the limit, and frees it', async () => {
    let dropped = 0;
    let cut = 0;
    const fanout = new SseFanout({ maxQueuedBytes: 4096, onDrop: () => dropped++ });
    const reader = fanout.open()!;
    const reading = readAll(reader.body);
    const paused = fanout.open(() => cut++)!;
    // 64 KiB sit in the stream itself, then 4 KiB may wait: a few hundred activities overflow.
    for (let i = 0; i < 400 && dropped === 0; i++) {
      fanout.publish(extraction(i % 10));
      await tick();
    }
    expect([dropped, cut, fanout.size]).toEqual([1, 1, 1]);
    // Its stream ends after what it already held (and its socket is cut): nothing more queues.
    await expect(readAll(paused.body)).resolves.toMatch(/event: extraction/);
    fanout.closeAll();
    expect((await reading).match(/event: extraction/g)?.length).toBeGreaterThan(100);
  });

  it('refuses streams past maxStreams; a closed one frees its place', () => {
    const fanout = new SseFanout({ maxStreams: 2 });
    const first = fanout.open()!;
    expect(fanout.open()).toBeDefined();
    expect(fanout.open()).toBeUndefined();
    first.close();
    expect(fanout.open()).toBeDefined();
  });
});
