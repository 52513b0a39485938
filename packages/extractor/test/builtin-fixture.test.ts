import type { MemoryRecord } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { createBuiltinExtractor } from '../src/index.js';
import { eventFrom, fixtureSession, NAMESPACE } from './fixtures/session.js';

const extract = async (events: ReturnType<typeof fixtureSession>) =>
  (await createBuiltinExtractor().extract({ namespace: NAMESPACE, events })).records;

const byType = (records: MemoryRecord[], type: MemoryRecord['observation_type']) =>
  records.filter((record) => record.observation_type === type);

const text = (record: MemoryRecord) => [record.title, record.summary, ...record.facts].join('\n');

describe('built-in extractor on the Kiro CLI fixture session', () => {
  it('writes a turn summary naming the request, the files, the commands and the error', async () => {
    const [summary, ...rest] = byType(
      await extract(fixtureSession({ withAnswer: false })),
      'session_summary',
    );
    expect(rest).toHaveLength(0);
    expect(summary!.title).toBe(
      "The Stripe webhook handler returns 400 on every event since yesterday's deploy — fixed StripeSignatureVerificationError in src/webhooks/stripe.ts",
    );
    expect(summary!.summary).toBe(
      "Request: The Stripe webhook handler returns 400 on every event since yesterday's deploy. Can you find out why?\n" +
        'Error: StripeSignatureVerificationError in src/webhooks/stripe.test.ts > rejects unsigned payloads — fixed by editing src/webhooks/stripe.ts.',
    );
    expect(summary!.facts).toEqual([
      'Read: src/webhooks/stripe.ts',
      'Modified src/webhooks/stripe.ts (Keep the raw body for signature verification)',
      'Ran `pnpm vitest run src/webhooks` failed, then passed',
    ]);
    expect(summary!.files_touched).toEqual(['src/webhooks/stripe.ts']);
    expect(summary!.concepts).toEqual(
      expect.arrayContaining(['vitest', 'StripeSignatureVerificationError', 'bug-fix']),
    );
  });

  it('writes an error record with the failing test, its message, the edit that fixed it and the test counts', async () => {
    const events = fixtureSession({ withAnswer: false });
    const [error, ...rest] = byType(await extract(events), 'error');
    expect(rest).toHaveLength(0);
    expect(error!.title).toBe(
      'StripeSignatureVerificationError in src/webhooks/stripe.test.ts > rejects unsigned payloads — fixed in src/webhooks/stripe.ts',
    );
    expect(error!.summary).toBe(
      '`pnpm vitest run src/webhooks` failed (exit 1; 1 failed, 11 passed of 12): StripeSignatureVerificationError: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe? ' +
        'Fixed by editing src/webhooks/stripe.ts; afterwards `pnpm vitest run src/webhooks` passed (12 passed of 12).',
    );
    expect(error!.facts).toEqual([
      "Fix: src/webhooks/stripe.ts (Keep the raw body for signature verification): replaced `router.use(express.json());` with `router.use('/webhooks/stripe', express.raw({ type: 'application/json' }));`",
    ]);
    expect(error!.files_touched).toEqual(['src/webhooks/stripe.test.ts', 'src/webhooks/stripe.ts']);
    // Cites the prompt, the failing run, the edit and the passing run; not the read or the spawn note.
    const [, prompt, , failing, edit, passing] = events.map((event) => event.event_id);
    expect(error!.source_event_ids).toEqual([prompt, failing, edit, passing]);
  });

  it('says each thing once across the records of a turn', async () => {
    const records = await extract(fixtureSession({ withAnswer: true }));
    expect(records.map((record) => record.observation_type)).toEqual(['session_summary', 'error']);
    const all = records.map(text).join('\n');
    const times = (needle: string) => all.split(needle).length - 1;
    expect(times('No signatures found matching the expected signature')).toBe(1);
    expect(times("express.raw({ type: 'application/json' })")).toBe(1);
    expect(times('so the signature was computed over re-serialized JSON')).toBe(1);
    expect(times('1 failed, 11 passed of 12')).toBe(1);
  });

  it("keeps the agent's explanation as the turn's outcome, a long one as facts, never pasted", async () => {
    const short = await extract(fixtureSession({ withAnswer: true }));
    expect(byType(short, 'session_summary')[0]!.summary).toContain(
      'Outcome: The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON. I switched the webhook route to express.raw()',
    );
    expect(byType(short, 'discovery')).toEqual([]);

    const events = fixtureSession({ withAnswer: true });
    const stop = events.at(-1)!;
    const explanation = [
      '## Summary',
      '',
      'Done! The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON.',
      '',
      '| Before | After |',
      '| --- | --- |',
      '| express.json() on every route | express.raw() on the webhook route |',
      '',
      '```ts',
      "router.use('/webhooks/stripe', express.raw({ type: 'application/json' }));",
      '```',
      '',
      '- Stripe signs the exact bytes it sends; any re-serialization changes them.',
      '- **Watch out** for the global body parser in src/app.ts: it must stay after the webhook router.',
    ].join('\n');
    events[events.length - 1] = { ...stop, body: { type: 'text', content: explanation } };
    const long = await extract(events);
    expect(long.map((r) => r.observation_type)).toEqual(['session_summary', 'error']);
    const summary = byType(long, 'session_summary')[0]!;
    expect(summary.summary).toContain(
      'Outcome: The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON.',
    );
    expect(summary.facts).toEqual(
      expect.arrayContaining([
        'express.json() on every route: express.raw() on the webhook route',
        'Stripe signs the exact bytes it sends; any re-serialization changes them.',
        'Watch out for the global body parser in src/app.ts: it must stay after the webhook router.',
      ]),
    );
    // Nothing of the answer renders as structure: no heading, table row, fence or pasted code.
    for (const line of [summary.summary, ...summary.facts].flatMap((t) => t.split('\n'))) {
      expect(line).not.toMatch(/^\s*(#{1,6}\s|\||```|~~~)/);
    }
    expect(text(summary)).not.toContain("router.use('/webhooks/stripe'");
    expect(text(summary)).not.toContain('Done!');
  });

  it('marks an error unresolved when no later run passed', async () => {
    const events = fixtureSession({ withAnswer: false }).filter((_, index) => index !== 5);
    const records = await extract(events);
    expect(byType(records, 'error')[0]!.title).toMatch(/— unresolved$/);
    expect(byType(records, 'error')[0]!.summary).toContain('not yet confirmed by a passing run');
    expect(byType(records, 'session_summary')[0]!.title).toMatch(/— 1 unresolved error$/);
  });

  it('summarises a turn that has only a prompt and an answer, and skips a batch of notes', async () => {
    const chat = [
      eventFrom('prompt', { type: 'text', content: 'Which port does the dev server use?' }),
      eventFrom('session_summary', {
        type: 'text',
        content: 'It listens on 5173 (vite.config.ts sets server.port).',
      }),
    ];
    const [only, ...rest] = await extract(chat);
    expect(rest).toHaveLength(0);
    expect(only!.title).toBe(
      'Which port does the dev server use? — It listens on 5173 (vite.config.ts sets server.port)',
    );
    expect(only!.summary).toContain('Outcome: It listens on 5173');
    expect(await extract([eventFrom('note', { type: 'text', content: 'agentSpawn' })])).toEqual([]);
  });

  it('makes no record of a turn that only asked; the next record of the session answers it', async () => {
    const events = [
      eventFrom('prompt', { type: 'text', content: 'which file sets the webhook route?' }, 'a'),
      eventFrom('prompt', { type: 'text', content: 'other session, only asking' }, 'b'),
      eventFrom('session_summary', { type: 'text', content: '' }, 'a'),
      eventFrom('prompt', { type: 'text', content: 'continue' }, 'a'),
      eventFrom(
        'tool_use',
        {
          type: 'json',
          data: {
            tool_name: 'fs_read',
            tool_input: {
              operations: [{ mode: 'Line', path: '/home/dev/src/payments-api/src/app.ts' }],
            },
            tool_response: { success: true, result: ['router.use(webhooks)'] },
          },
        },
        'a',
      ),
      eventFrom('session_summary', { type: 'text', content: 'Done.' }, 'a'),
    ];
    const records = await extract(events);
    expect(records).toHaveLength(1);
    const [record] = records;
    // `continue` names nothing: the turn is about the question before it.
    expect(record!.title).toBe('which file sets the webhook route? — read src/app.ts');
    expect(record!.summary).toBe('Request: which file sets the webhook route?');
    expect(record!.files_touched).toEqual(['src/app.ts']);
    expect(records.some((r) => r.title.includes('other session'))).toBe(false);
  });

  it('splits turns by session and by prompt', async () => {
    const answer = (content: string, session: string) =>
      eventFrom('session_summary', { type: 'text', content }, session);
    const events = [
      eventFrom('prompt', { type: 'text', content: 'first question about ports' }, 'a'),
      eventFrom('prompt', { type: 'text', content: 'other session asks about caches' }, 'b'),
      answer('The dev server listens on port 5173 by default.', 'a'),
      eventFrom('prompt', { type: 'text', content: 'second question about hosts' }, 'a'),
      answer('The cache lives in node_modules/.vite and is rebuilt on lockfile changes.', 'b'),
      answer('It binds to localhost unless server.host is set to true.', 'a'),
    ];
    const titles = (await extract(events)).map((record) => record.title);
    expect(titles).toEqual([
      'first question about ports — The dev server listens on port 5173 by default',
      'other session asks about caches — The cache lives in node_modules/.vite and is rebuilt on lockfile changes',
      'second question about hosts — It binds to localhost unless server.host is set to true',
    ]);
  });
});
