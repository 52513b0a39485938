import type { StorageBackend } from '@kiro-learn/storage';
import { HOSTILE_TEXTS } from '@kiro-learn/test-harness/records';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRetriever, RetrievalError } from '../src/index.js';
import { NS, openTemp, record } from './helpers.js';

const webhook = () =>
  record({
    title: 'Stripe webhook needs the raw body',
    summary: 'express.json() consumed the body before stripe constructEvent could verify it.',
    facts: ['Use express.raw on the webhook route'],
    concepts: ['stripe', 'webhooks'],
    files_touched: ['src/routes/webhooks/stripe.ts'],
    observation_type: 'error',
  });

/** A backend whose search is replaced, for the race and error paths (the rest stays real). */
function withSearch(
  storage: StorageBackend,
  search: StorageBackend['searchRecords'],
): StorageBackend {
  return new Proxy(storage, {
    get: (target, key) =>
      key === 'searchRecords' ? search : Reflect.get(target, key, target)?.bind?.(target),
  });
}

describe('retrieve', () => {
  it('puts the matching record in the context and logs the retrieval', async () => {
    const storage = await openTemp();
    const hit = webhook();
    await storage.putRecord(hit);
    await storage.putRecord(
      record({ title: 'Money is integer cents', summary: 'Floats drifted.' }),
    );
    const retriever = createRetriever({ storage });

    const result = await retriever.retrieve({
      namespace: NS,
      prompt: 'stripe says no signatures found on the webhook',
      sessionId: 's1',
    });

    expect(result.records).toEqual([hit.record_id]);
    expect(result.context).toBe(
      '## Prior observations from kiro-learn\n\n### Stripe webhook needs the raw body\n\n' +
        'express.json() consumed the body before stripe constructEvent could verify it.\n\n' +
        '- Use express.raw on the webhook route\n',
    );
    expect(result.timedOut).toBe(false);
    await retriever.flush();
    const [logged] = await storage.listRetrievals({ namespace: NS, limit: 10 });
    expect(logged).toMatchObject({
      sessionId: 's1',
      query: 'stripe says no signatures found on the webhook',
      recordIds: [hit.record_id],
      timedOut: false,
      budgetCut: false,
    });
    expect(logged!.scores).toHaveLength(1);
  });

  it('leaves out records that match far worse than the best one', async () => {
    const storage = await openTemp();
    const hit = webhook();
    await storage.putRecord(hit);
    await storage.putRecord(
      record({ title: 'Deploy checklist', summary: 'Run migrations first.' }),
    );
    const prompt = 'stripe webhook signature fails, raw body? it broke after the deploy';
    const result = await createRetriever({ storage }).retrieve({ namespace: NS, prompt });
    expect(result.records).toEqual([hit.record_id]);
    const all = await createRetriever({ storage, minRelativeScore: 0 }).retrieve({
      namespace: NS,
      prompt,
    });
    expect(all.records).toHaveLength(2);
  });

  it('returns an empty result for an empty prompt or no match', async () => {
    const storage = await openTemp();
    await storage.putRecord(webhook());
    const retriever = createRetriever({ storage });
    for (const prompt of ['', '   ', 'the and of', 'kubernetes helm chart']) {
      const result = await retriever.retrieve({ namespace: NS, prompt });
      expect(result).toMatchObject({ context: '', records: [], timedOut: false });
    }
  });

  it('does not inject a record twice in one session unless it changed', async () => {
    const storage = await openTemp();
    const hit = webhook();
    await storage.putRecord(hit);
    const retriever = createRetriever({ storage });
    const ask = (sessionId: string) =>
      retriever.retrieve({ namespace: NS, prompt: 'webhook signature again', sessionId });

    expect((await ask('s1')).records).toEqual([hit.record_id]);
    expect(await ask('s1')).toMatchObject({ context: '', records: [] });
    expect((await ask('s2')).records).toEqual([hit.record_id]);

    // A collector restart forgets memory, not the log.
    await retriever.flush();
    const restarted = createRetriever({ storage });
    const again = await restarted.retrieve({
      namespace: NS,
      prompt: 'webhook signature',
      sessionId: 's1',
    });
    expect(again.records).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 5)); // updated_at must be later than the injection
    await storage.updateRecord(hit.record_id, {
      summary: 'Use express.raw; express.json breaks it.',
    });
    expect((await ask('s1')).records).toEqual([hit.record_id]);
  });

  it('injects one of two records that say the same, and not the other later in the session', async () => {
    const storage = await openTemp();
    const [first, twin] = [webhook(), webhook()];
    const secret = record({
      title: 'Stripe webhook secret differs per environment',
      summary: 'Signature checks fail in staging with the production STRIPE_WEBHOOK_SECRET.',
    });
    for (const r of [first, twin, secret]) await storage.putRecord(r);
    const retriever = createRetriever({ storage });
    const ask = () =>
      retriever.retrieve({ namespace: NS, prompt: 'stripe webhook signature', sessionId: 's' });

    const result = await ask();
    expect(result.records).toHaveLength(2);
    expect(result.records).toContain(secret.record_id);
    expect(result.context.match(/### Stripe webhook needs the raw body/g)).toHaveLength(1);
    expect(result.scores).toHaveLength(2);
    expect((await ask()).records).toEqual([]);
  });

  it('never returns another namespace, whatever its name', async () => {
    const storage = await openTemp();
    const mine = '/actor/a_b/project/p%1/';
    const theirs = '/actor/aXb/project/p%10/';
    await storage.putRecord(record({ ...webhook(), namespace: theirs }));
    const own = record({ ...webhook(), namespace: mine, title: 'Mine' });
    await storage.putRecord(own);
    const retriever = createRetriever({ storage });
    const result = await retriever.retrieve({ namespace: mine, prompt: 'stripe webhook raw body' });
    expect(result.records).toEqual([own.record_id]);
    const none = await retriever.retrieve({
      namespace: '/actor/a_b/project/p/',
      prompt: 'stripe webhook',
    });
    expect(none.records).toEqual([]);
  });

  it('keeps the context within the token budget and says so', async () => {
    const storage = await openTemp();
    for (let i = 0; i < 8; i++) {
      await storage.putRecord(
        record({
          title: `Webhook retry note ${i}`,
          summary: `webhook retries ${'detail '.repeat(150)}`,
        }),
      );
    }
    const retriever = createRetriever({ storage, contextTokens: 300 });
    const result = await retriever.retrieve({
      namespace: NS,
      prompt: 'webhook retries',
      sessionId: 's',
    });
    expect(result.context.length).toBeLessThanOrEqual(300 * 4);
    expect(result.records.length).toBeGreaterThan(0);
    expect(result.records.length).toBeLessThan(8);
    expect(result.budgetCut).toBe(true);
    await retriever.flush();
    const [logged] = await storage.listRetrievals({ sessionId: 's', limit: 1 });
    expect(logged!.budgetCut).toBe(true);
  });

  it('gives up with an empty result when the search outlives the latency budget', async () => {
    const storage = await openTemp();
    await storage.putRecord(webhook());
    let finish: () => void = () => {};
    const slow = withSearch(storage, async (query) => {
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return storage.searchRecords(query);
    });
    const retriever = createRetriever({ storage: slow, budgetMs: 20 });
    const result = await retriever.retrieve({
      namespace: NS,
      prompt: 'stripe webhook',
      sessionId: 's',
    });
    finish();
    expect(result).toMatchObject({ context: '', records: [], timedOut: true });
    await retriever.flush();
    const [logged] = await storage.listRetrievals({ sessionId: 's', limit: 1 });
    expect(logged).toMatchObject({ timedOut: true, recordIds: [] });
    // What was not injected is not remembered as injected.
    const fast = createRetriever({ storage });
    expect(
      (await fast.retrieve({ namespace: NS, prompt: 'stripe webhook', sessionId: 's' })).records,
    ).toHaveLength(1);
  });

  it('turns every error into an empty result', async () => {
    const storage = await openTemp();
    const errors: unknown[] = [];
    const broken = withSearch(storage, async () => {
      throw new Error('disk I/O error');
    });
    const retriever = createRetriever({ storage: broken, onError: (e) => errors.push(e) });
    const result = await retriever.retrieve({ namespace: NS, prompt: 'stripe webhook' });
    expect(result).toMatchObject({
      context: '',
      records: [],
      timedOut: false,
      error: 'disk I/O error',
    });
    expect(errors).toHaveLength(1);

    await storage.close();
    const closed = createRetriever({ storage, onError: (e) => errors.push(e) });
    expect(await closed.retrieve({ namespace: NS, prompt: 'x y', sessionId: 's' })).toMatchObject({
      context: '',
    });
    expect(await closed.sessionStart({ namespace: NS, sessionId: 's' })).toMatchObject({
      context: '',
    });
    // biome-ignore lint/suspicious/noExplicitAny: a caller without types
    expect(await closed.retrieve(undefined as any)).toMatchObject({ context: '' });
  });

  it('survives hostile prompts through the whole path', async () => {
    const storage = await openTemp();
    await storage.putRecord(
      record({ title: 'NEAR the AND of OR', summary: 'quotes " and parens ( ) and * ^ : here' }),
    );
    const retriever = createRetriever({ storage, log: false });
    const fixed = [...HOSTILE_TEXTS, 'src/../../etc/passwd', 'a.b.c.d.e'];
    const words = [
      'NEAR',
      'AND',
      'OR',
      'NOT',
      '"',
      '(',
      ')',
      '*',
      '^',
      ':',
      'x',
      '-',
      '+',
      '{',
      '}',
      'parens',
    ];
    const prompt = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constantFrom(...fixed),
      fc.array(fc.constantFrom(...words), { maxLength: 20 }).map((parts) => parts.join(' ')),
    );
    await fc.assert(
      fc.asyncProperty(prompt, async (text) => {
        const result = await retriever.retrieve({ namespace: NS, prompt: text, sessionId: 'h' });
        expect(result.error).toBeUndefined();
        expect(typeof result.context).toBe('string');
      }),
      { numRuns: 100 },
    );
    // What is asserted is the match, not the time: a loaded machine may pass 500 ms.
    const found = await createRetriever({ storage, budgetMs: 10_000, log: false }).retrieve({
      namespace: NS,
      prompt: `${'lorem ipsum '.repeat(500)} "parens" AND (`,
    });
    expect(found.records).toHaveLength(1);
  });

  it('refuses options that cannot work', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a caller without types
    expect(() => createRetriever({} as any)).toThrow(RetrievalError);
    expect(() => createRetriever({ storage: {} as StorageBackend })).toThrow(/StorageBackend/);
  });
});

describe('sessionStart', () => {
  it('gives a short overview: open problems, decisions, what changed; never bare requests', async () => {
    const storage = await openTemp();
    const day = (n: number) => new Date(Date.UTC(2026, 9, n)).toISOString();
    const open = record({
      title: 'Deadlock between transfers — unresolved',
      summary: 'Two transfers lock the same accounts in opposite order.',
      concepts: ['unresolved'],
      observation_type: 'error',
      created_at: day(1),
    });
    const fixed = record({
      title: 'Float rounding in totals — fixed',
      summary: 'Totals now use integer cents.',
      concepts: ['fixed'],
      observation_type: 'error',
      created_at: day(2),
    });
    const decision = record({
      title: 'Ids are UUIDv7',
      summary: 'They sort by time.',
      observation_type: 'decision',
      created_at: day(3),
    });
    const change = record({
      title: 'Holds expire after 7 days',
      summary: 'Request: expire holds\nOutcome: holds expire after 7 days now.',
      facts: ['Modified src/holds/expire.ts'],
      files_touched: ['src/holds/expire.ts'],
      observation_type: 'session_summary',
      created_at: day(4),
    });
    const question = record({
      title: 'which file did we change',
      summary: 'Request: which file did we change?\nNo tools were used.',
      observation_type: 'session_summary',
      created_at: day(5),
    });
    const chat = record({
      title: 'Ran go test',
      summary: 'All green.',
      observation_type: 'tool_use',
      created_at: day(6),
    });
    for (const r of [open, fixed, decision, change, question, chat]) await storage.putRecord(r);
    await storage.putRecord(
      record({ title: 'Elsewhere', namespace: '/actor/x/project/y/', created_at: day(7) }),
    );
    const retriever = createRetriever({ storage });

    const start = await retriever.sessionStart({ namespace: NS, sessionId: 's' });
    expect(start.records).toEqual([open.record_id, decision.record_id, change.record_id]);
    expect(
      start.context.startsWith(`## Prior observations from kiro-learn\n\n### ${open.title}\n`),
    ).toBe(true);
    expect(start.context.length).toBeLessThanOrEqual(400 * 4);

    // Shown at the start, the open problem is not shown again when a prompt asks about it.
    const prompt = await retriever.retrieve({
      namespace: NS,
      prompt: 'deadlock between transfers',
      sessionId: 's',
    });
    expect(prompt.records).toEqual([]);
    await retriever.flush();
    const [logged] = await storage.listRetrievals({ sessionId: 's', limit: 5 });
    expect(logged).toBeDefined();
  });
});
