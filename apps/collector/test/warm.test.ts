// The start-up warm-up runs the first hook's work once so the first prompt after a start
// pays no compilation inside its retrieval budget (bench/first-retrieval.ts measures that).
// What a user would notice is anything it left behind: it stores and logs nothing.
import { readdirSync } from 'node:fs';
import { newRecord } from '@kiro-learn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NS, type Running, send, startCollector } from './helpers.js';

let c: Running;
beforeAll(async () => {
  c = await startCollector({ semantic: { enabled: false } });
});
afterAll(() => c.close());

describe('the start-up warm-up', () => {
  it('stores nothing, logs no retrieval, and leaves the data dir as it was', async () => {
    const record = newRecord({
      namespace: NS,
      strategy: 'builtin',
      title: 'Why does the webhook test fail after the deploy',
      summary: 'The webhook test fails after the deploy when the raw body is parsed as JSON.',
      facts: ['use express.raw on the webhook route'],
      concepts: ['webhook'],
      files_touched: ['src/index.ts'],
      observation_type: 'error',
    });
    expect((await send(c.port, 'POST', '/v1/memories', { body: record })).status).toBe(200);
    const files = readdirSync(c.home).sort();
    await c.collector.warmUp();
    expect((await send(c.port, 'GET', '/v1/events')).json.items).toEqual([]);
    expect((await send(c.port, 'GET', '/v1/retrievals')).json.items).toEqual([]);
    const memories = (await send(c.port, 'GET', '/v1/memories')).json;
    expect(memories.items.map((m: { record_id: string }) => m.record_id)).toEqual([
      record.record_id,
    ]);
    expect(readdirSync(c.home).sort()).toEqual(files);
  });
});
