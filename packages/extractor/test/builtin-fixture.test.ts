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
  it('writes a turn summary naming the request, the file, the error, the fix and the test counts', async () => {
    const [summary, ...rest] = byType(
      await extract(fixtureSession({ withAnswer: false })),
      'session_summary',
    );
    expect(rest).toHaveLength(0);
    expect(summary!.title).toBe(
      "The Stripe webhook handler returns 400 on every event since yesterday's deploy — fixed StripeSignatureVerificationError in src/webhooks/stripe.ts",
    );
    const all = text(summary!);
    expect(all).toContain('User asked: The Stripe webhook handler returns 400');
    expect(all).toContain('Read: src/webhooks/stripe.ts');
    expect(all).toContain('Keep the raw body for signature verification');
    expect(all).toContain(
      "with `router.use('/webhooks/stripe', express.raw({ type: 'application/json' }));`",
    );
    expect(all).toContain(
      '`pnpm vitest run src/webhooks` failed (exit 1; 1 failed, 11 passed of 12)',
    );
    expect(all).toContain('`pnpm vitest run src/webhooks` passed (12 passed of 12)');
    expect(summary!.files_touched).toEqual(['src/webhooks/stripe.ts']);
    expect(summary!.concepts).toEqual(
      expect.arrayContaining(['vitest', 'StripeSignatureVerificationError', 'bug-fix']),
    );
  });

  it('writes an error record with the failing test, its message and the edit that fixed it', async () => {
    const events = fixtureSession({ withAnswer: false });
    const [error, ...rest] = byType(await extract(events), 'error');
    expect(rest).toHaveLength(0);
    expect(error!.title).toBe(
      'StripeSignatureVerificationError in src/webhooks/stripe.test.ts > rejects unsigned payloads — fixed in src/webhooks/stripe.ts',
    );
    expect(error!.facts).toEqual(
      expect.arrayContaining([
        'Failing test: src/webhooks/stripe.test.ts > rejects unsigned payloads',
        'Error: StripeSignatureVerificationError: No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?',
        expect.stringMatching(/^Fix: src\/webhooks\/stripe\.ts \(Keep the raw body.*express\.raw/),
        'After the fix: `pnpm vitest run src/webhooks` passed (12 passed of 12)',
      ]),
    );
    expect(error!.files_touched).toEqual(['src/webhooks/stripe.test.ts', 'src/webhooks/stripe.ts']);
    // Cites the prompt, the failing run, the edit and the passing run; not the read or the spawn note.
    const [, prompt, , failing, edit, passing] = events.map((event) => event.event_id);
    expect(error!.source_event_ids).toEqual([prompt, failing, edit, passing]);
  });

  it("keeps the agent's explanation when the stop hook carries one", async () => {
    const records = await extract(fixtureSession({ withAnswer: true }));
    const [discovery] = byType(records, 'discovery');
    expect(discovery!.title).toBe(
      'The handler parsed the body with express.json() before calling constructEvent, so the signature was computed over re-serialized JSON.',
    );
    expect(byType(records, 'session_summary')[0]!.summary).toContain(
      'Outcome: The handler parsed the body',
    );
    expect(byType(records, 'error')[0]!.summary).toContain(
      "Agent's explanation: The handler parsed",
    );
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
