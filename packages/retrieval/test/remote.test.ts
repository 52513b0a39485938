import { describe, expect, it } from 'vitest';
import { createRetriever, type RemoteHit, type RemoteSource } from '../src/index.js';
import { NS, openTemp, record } from './helpers.js';

const TEAM_NS = '/actor/bob/project/payments-api/';

const mine = () =>
  record({
    title: 'Stripe webhook needs the raw body',
    summary: 'express.json() consumed the body before stripe constructEvent could verify it.',
    concepts: ['stripe', 'webhooks'],
  });

const theirs = () =>
  record({
    namespace: TEAM_NS,
    title: 'Stripe webhook secret differs per environment',
    summary: 'The stripe webhook signing secret of staging is not the one of production.',
    concepts: ['stripe', 'webhooks'],
  });

/** A remote source answering from a list, after `delayMs`, honouring its abort signal. */
function source(hits: RemoteHit[], delayMs = 0, extra: Partial<RemoteSource> = {}): RemoteSource {
  const answer = (signal: AbortSignal) =>
    new Promise<RemoteHit[]>((resolve, reject) => {
      const timer = setTimeout(() => resolve(hits), delayMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  return {
    budgetMs: 200,
    search: (_request, signal) => answer(signal),
    recent: (_request, signal) => answer(signal),
    self: () => 'alice',
    ...extra,
  };
}

describe('retrieval with a remote source (team memory)', () => {
  it('merges both sides into one context; a teammate record is marked with its author', async () => {
    const storage = await openTemp();
    const local = mine();
    await storage.putRecord(local);
    const team = theirs();
    const placed: string[] = [];
    const retriever = createRetriever({
      storage,
      remote: source([{ record: team, author: 'bob', score: 3 }], 0, {
        onPlaced: (hits) => placed.push(...hits.map((h) => h.record.record_id)),
      }),
    });
    const result = await retriever.retrieve({ namespace: NS, prompt: 'stripe webhook secret' });
    expect(result.records).toEqual(expect.arrayContaining([local.record_id, team.record_id]));
    expect(result.context).toContain(`### ${team.title} — from bob\n`);
    expect(result.context).toContain(`### ${local.title}\n`);
    expect(result.remote).toEqual([{ recordId: team.record_id, author: 'bob' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(placed).toEqual([team.record_id]);
  });

  it('does not ask a source about a namespace it does not cover (a project not shared)', async () => {
    const storage = await openTemp();
    const local = mine();
    await storage.putRecord(local);
    const asked: string[] = [];
    const team = theirs();
    const answering = source([{ record: team, author: 'bob', score: 3 }]);
    const retriever = createRetriever({
      storage,
      remote: {
        ...answering,
        covers: (namespace) => namespace !== NS,
        search: (request, signal) => {
          asked.push(request.namespace);
          return answering.search(request, signal);
        },
      },
    });
    const result = await retriever.retrieve({ namespace: NS, prompt: 'stripe webhook secret' });
    expect(result.records).toEqual([local.record_id]);
    expect(result.remote).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('counts a record both sides found once, and does not label the member’s own records', async () => {
    const storage = await openTemp();
    const local = mine();
    await storage.putRecord(local);
    const ownElsewhere = { ...theirs(), namespace: TEAM_NS };
    const retriever = createRetriever({
      storage,
      remote: source([
        { record: { ...local, namespace: TEAM_NS }, author: 'alice', score: 5 },
        { record: ownElsewhere, author: 'alice', score: 4 },
      ]),
    });
    const result = await retriever.retrieve({ namespace: NS, prompt: 'stripe webhook secret' });
    expect(result.records.filter((id) => id === local.record_id)).toHaveLength(1);
    expect(result.records).toContain(ownElsewhere.record_id);
    expect(result.context).not.toContain(' — from ');
  });

  it('a source slower than its sub-budget is left out: local results alone, within the budget', async () => {
    const storage = await openTemp();
    const local = mine();
    await storage.putRecord(local);
    const errors: unknown[] = [];
    const retriever = createRetriever({
      storage,
      budgetMs: 2000,
      remote: source([{ record: theirs(), author: 'bob', score: 3 }], 60_000, {
        budgetMs: 50,
        onError: (error) => errors.push(error),
      }),
    });
    const result = await retriever.retrieve({ namespace: NS, prompt: 'stripe webhook secret' });
    expect(result.timedOut).toBe(false);
    expect(result.records).toEqual([local.record_id]);
    expect(result.context).not.toContain('from bob');
    expect(String(errors[0])).toContain('no answer within 50 ms');
  });

  it('a failing source is left out', async () => {
    const storage = await openTemp();
    const local = mine();
    await storage.putRecord(local);
    const retriever = createRetriever({
      storage,
      remote: {
        ...source([]),
        search: async () => {
          throw new Error('ECONNREFUSED');
        },
      },
    });
    const result = await retriever.retrieve({ namespace: NS, prompt: 'stripe webhook' });
    expect(result.records).toEqual([local.record_id]);
    expect(result.error).toBeUndefined();
  });

  it('session start includes recent teammate records, marked, after the local quotas', async () => {
    const storage = await openTemp();
    const summary = record({ observation_type: 'session_summary', title: 'Where we left off' });
    await storage.putRecord(summary);
    const team = theirs();
    const retriever = createRetriever({
      storage,
      remote: source([{ record: team, author: 'bob', score: 0 }]),
    });
    const result = await retriever.sessionStart({ namespace: NS });
    expect(result.records).toEqual([summary.record_id, team.record_id]);
    expect(result.context).toContain(`### ${team.title} — from bob\n`);
  });
});
