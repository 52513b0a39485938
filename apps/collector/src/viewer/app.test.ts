import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNamespace, newRecord, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewerApp } from './app.js';

const NS = buildNamespace('dev', 'shop');
let dir: string;
let storage: SqliteStorage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kiro-learn-viewer-app-'));
  storage = await openSqliteStorage({ path: join(dir, 'db.sqlite') });
  for (const day of ['2026-11-20', '2026-11-21', '2026-11-22']) {
    await storage.putRecord(
      newRecord({
        namespace: NS,
        strategy: 'builtin',
        title: `Work of ${day}`,
        summary: 'A day of work.',
        created_at: `${day}T18:00:00.000Z`,
      }),
    );
  }
});

afterAll(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

const app = (extra: Partial<Parameters<typeof viewerApp>[0]> = {}) =>
  viewerApp({
    storage,
    version: '1.2.3',
    startedAt: 0,
    extractor: () => 'built-in',
    assetsDir: join(dir, 'no-assets-here'),
    ...extra,
  });

async function json(response: Response): Promise<unknown> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}

describe('viewerApp', () => {
  it('says how to fix a missing bundle instead of serving a broken page', async () => {
    const response = await app().request('/');
    expect(response.status).toBe(503);
    expect(await json(response)).toEqual({
      error: 'viewer assets are missing',
      details: 'build them: pnpm --filter kiro-learn build',
    });
  });

  it('filters records by day, a bare `until` date including that whole day', async () => {
    const response = await app().request('/api/memories?since=2026-11-21&until=2026-11-21');
    const body = (await json(response)) as { items: { title: string }[]; total: number };
    expect(body.items.map((r) => r.title)).toEqual(['Work of 2026-11-21']);
    expect(body.total).toBe(1);
  });

  it("names who shared a team server's records, and no one for other records", async () => {
    const shared = newRecord({
      namespace: '/actor/team:payments/project/github.com-acme-shop/',
      strategy: 'llm-summary',
      title: 'Refunds go through the ledger queue',
      summary: 'Never refund from the web handler.',
      observation_type: 'decision' as const,
      created_at: '2026-11-22T09:00:00.000Z',
    });
    await storage.putTeamRecord({
      record: shared,
      team: 'payments',
      member: 'alice',
      admin: false,
      revision: 4,
    });
    const local = (await storage.listRecords({ namespace: NS, limit: 1 })).items[0]!;
    const response = await app().request(`/api/team?ids=${shared.record_id},${local.record_id}`);
    expect(await json(response)).toEqual({
      [shared.record_id]: {
        team: 'payments',
        author: 'alice',
        revision: 4,
        updated_at: expect.any(String),
      },
    });
    expect((await app().request('/api/team?ids=nope')).status).toBe(400);
    // The projects screen tells one team's copy of a project from another's.
    const { items } = (await json(await app().request('/api/projects'))) as {
      items: { namespace: string; project: string }[];
    };
    expect(items.find((p) => p.namespace === shared.namespace)?.project).toBe(
      'github.com-acme-shop (team payments)',
    );
    expect(items.find((p) => p.namespace === NS)?.project).toBe('shop');
    await storage.deleteRecord(shared.record_id);
  });

  it('answers bad input with {error, details}', async () => {
    const v = app();
    const bad = await v.request('/api/memories?since=yesterday&limit=0');
    expect(bad.status).toBe(400);
    const body = (await json(bad)) as { error: string; details: string[] };
    expect(body.error).toBe('invalid request');
    expect(body.details.join('\n')).toMatch(/since/);
    expect(body.details.join('\n')).toMatch(/limit/);

    const sources = await v.request(`/api/memories/${newRecordId()}/sources`);
    expect(sources.status).toBe(404);
    expect(await json(sources)).toMatchObject({ error: 'memory record not found' });

    const notJson = await v.request('/api/projects/extract', { method: 'POST', body: 'x' });
    expect(notJson.status).toBe(400);
    const badNs = await v.request('/api/projects/extract', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ namespace: '../etc' }),
    });
    expect(badNs.status).toBe(400);
  });

  it('extract now: 501 when the collector cannot, 202 once a run is under way', async () => {
    const request = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ namespace: NS }),
    };
    expect((await app().request('/api/projects/extract', request)).status).toBe(501);
    const runs: string[] = [];
    const never = app({
      extractNow: (ns) => {
        runs.push(ns);
        return new Promise(() => {});
      },
    });
    const started = await never.request('/api/projects/extract', request);
    expect(started.status).toBe(202);
    expect(await json(started)).toEqual({ started: true, finished: false, namespace: NS });
    expect(runs).toEqual([NS]);
  });

  it('reports health: version, uptime, extractor and an hour of latency slices', async () => {
    const body = (await json(await app({ now: () => 90_000 }).request('/api/health'))) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      version: '1.2.3',
      uptime_s: 90,
      extractor: 'built-in',
      memories: 3,
    });
    expect(body['latency']).toHaveLength(12);
    expect(body['semantic']).toBeUndefined();
  });

  it('reports semantic search with the prompts answered lexical only since start', async () => {
    const semantic = async () => ({
      state: 'on',
      model: 'sentence-transformers/all-MiniLM-L6-v2',
      runtime: 'onnxruntime-node',
      precision: 'int8',
      prompts: { used: 40, timedOut: 2, failed: 1 },
    });
    const body = (await json(await app({ semantic }).request('/api/health'))) as Record<
      string,
      unknown
    >;
    expect(body['semantic']).toEqual({
      state: 'on',
      model: 'sentence-transformers/all-MiniLM-L6-v2',
      runtime: 'onnxruntime-node',
      precision: 'int8',
      prompts: { used: 40, timed_out: 2, failed: 1 },
    });
  });
});
