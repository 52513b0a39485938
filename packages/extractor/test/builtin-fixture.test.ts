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

  it("keeps the agent's explanation as the turn's outcome, and a long one as a discovery", async () => {
    const short = await extract(fixtureSession({ withAnswer: true }));
    expect(byType(short, 'session_summary')[0]!.summary).toContain(
      'Outcome: The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON. I switched the webhook route to express.raw()',
    );
    expect(byType(short, 'discovery')).toEqual([]);

    const events = fixtureSession({ withAnswer: true });
    const stop = events.at(-1)!;
    const explanation = [
      'The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON.',
      'Stripe signs the exact bytes it sends; any re-serialization (key order, whitespace, unicode escapes) changes them.',
      "I mounted express.raw({ type: 'application/json' }) on the webhook route only, so the rest of the API keeps parsing JSON.",
      'The secret was never the problem: the same test passes with the staging secret once the raw body is used.',
      'Watch out for the global body parser in src/app.ts: it must stay after the webhook router.',
      'A test now posts a payload signed with the test secret and checks that the handler accepts it.',
    ].join('\n');
    events[events.length - 1] = { ...stop, body: { type: 'text', content: explanation } };
    const long = await extract(events);
    const [discovery, ...more] = byType(long, 'discovery');
    expect(more).toHaveLength(0);
    expect(discovery!.title).toBe(
      'The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON.',
    );
    expect(discovery!.summary).toBe(explanation);
    const summary = byType(long, 'session_summary')[0]!.summary;
    expect(summary).toContain(
      'Outcome: The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON.\n',
    );
    expect(summary).not.toContain('Watch out for the global body parser');
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
    expect(only!.title).toBe('Which port does the dev server use?');
    expect(only!.summary).toContain('Outcome: It listens on 5173');
    expect(await extract([eventFrom('note', { type: 'text', content: 'agentSpawn' })])).toEqual([]);
  });

  it('splits turns by session and by prompt', async () => {
    const events = [
      eventFrom('prompt', { type: 'text', content: 'first question' }, 'a'),
      eventFrom('prompt', { type: 'text', content: 'other session' }, 'b'),
      eventFrom('session_summary', { type: 'text', content: '' }, 'a'),
      eventFrom('prompt', { type: 'text', content: 'second question' }, 'a'),
    ];
    const titles = (await extract(events)).map((record) => record.title);
    expect(titles).toEqual(['first question', 'other session', 'second question']);
  });
});
