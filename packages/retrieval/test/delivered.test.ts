/**
 * `retrieve({ delivered })`: a caller that learns only later whether its answer goes out
 * (the collector retrieves while the prompt's event is stored) has nothing noted as shown
 * for a context its agent never got: the session's later prompts still get those records.
 */
import { describe, expect, it } from 'vitest';
import { createRetriever, type RemoteSource } from '../src/index.js';
import { NS, openTemp, record } from './helpers.js';

const PROMPT = 'why does the stripe webhook signature check fail?';

/** A local record and a teammate's for the prompt; the team records placed, as kept. */
async function setUp() {
  const storage = await openTemp();
  const local = record({
    title: 'Stripe webhook needs the raw body',
    summary: 'express.json() consumed the body before stripe constructEvent could verify it.',
    concepts: ['stripe', 'webhook', 'signature'],
  });
  await storage.putRecord(local);
  const team = record({
    namespace: '/actor/bob/project/payments-api/',
    title: 'Stripe webhook signature secret differs per environment',
    summary: 'The stripe webhook signing secret of staging is not the one of production.',
    concepts: ['stripe', 'webhook', 'signature'],
  });
  const kept: string[] = [];
  const hits = async () => [{ record: team, author: 'bob', score: 3 }];
  const remote: RemoteSource = {
    budgetMs: 1000,
    search: hits,
    recent: hits,
    onPlaced: (placed) => kept.push(...placed.map((hit) => hit.record.record_id)),
  };
  const retriever = createRetriever({ storage, remote, budgetMs: 5000 });
  /** After the notes of every retrieval made so far (the team copies wait a turn). */
  const settled = async () => {
    await retriever.flush();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { storage, retriever, local, team, kept, settled };
}

describe('retrieve with delivered', () => {
  it('notes nothing for a context that never reached the agent', async () => {
    const { storage, retriever, local, team, kept, settled } = await setUp();
    const lost = await retriever.retrieve({
      namespace: NS,
      prompt: PROMPT,
      sessionId: 's',
      delivered: Promise.resolve(false),
    });
    expect(lost.records).toEqual(expect.arrayContaining([local.record_id, team.record_id]));
    await settled();
    expect(await storage.listRetrievals({ namespace: NS, sessionId: 's', limit: 10 })).toEqual([]);
    expect(kept).toEqual([]);

    const next = await retriever.retrieve({ namespace: NS, prompt: PROMPT, sessionId: 's' });
    expect(next.records).toContain(local.record_id);
  });

  it('notes a delivered context once delivered: log line, kept team record, no repeat', async () => {
    const { storage, retriever, local, team, kept, settled } = await setUp();
    let deliver: (delivered: boolean) => void = () => {};
    const shown = await retriever.retrieve({
      namespace: NS,
      prompt: PROMPT,
      sessionId: 's',
      delivered: new Promise<boolean>((resolve) => {
        deliver = resolve;
      }),
    });
    expect(shown.records).toContain(local.record_id);
    deliver(true);
    await settled();
    const log = await storage.listRetrievals({ namespace: NS, sessionId: 's', limit: 10 });
    expect(log.map((entry) => entry.recordIds)).toEqual([shown.records]);
    expect(kept).toEqual([team.record_id]);

    const next = await retriever.retrieve({ namespace: NS, prompt: PROMPT, sessionId: 's' });
    expect(next.records).not.toContain(local.record_id);
  });
});
