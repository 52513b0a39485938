import { type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { curateRecords, supersessionReason } from './curate.js';

const NS = '/actor/dev/project/shop/';
let clock = Date.parse('2026-03-01T00:00:00Z');
function record(fields: Partial<MemoryRecord>): MemoryRecord {
  clock += 60_000;
  return {
    record_id: newRecordId(),
    namespace: NS,
    strategy: 'builtin',
    title: 'A record',
    summary: 'Something.',
    facts: [],
    concepts: [],
    files_touched: [],
    observation_type: 'session_summary',
    source_event_ids: [newEventId()],
    created_at: new Date(clock).toISOString(),
    ...fields,
  };
}

describe('a newer record that retires an older one (no model)', () => {
  it('a changed value of the same setting', () => {
    const older = record({
      title: 'HTTP client timeout',
      summary: 'The request timeout is 10 s for the payments client.',
      files_touched: ['src/http.ts'],
    });
    const newer = record({
      title: 'Raised the HTTP client timeout',
      summary: 'The request timeout is now 30 s for the payments client.',
      files_touched: ['src/http.ts'],
    });
    expect(supersessionReason(newer, older)).toBe(
      'same file src/http.ts; timeout changed: 10s → 30s',
    );
    // Never backwards in time, never across projects.
    expect(supersessionReason(older, newer)).toBeUndefined();
    expect(
      supersessionReason({ ...newer, namespace: '/actor/dev/project/other/' }, older),
    ).toBeUndefined();
  });

  it('an explicit replacement of the same thing', () => {
    const older = record({
      title: 'Background jobs go through Redis',
      summary: 'The job queue uses Redis (BullMQ) in src/queue.ts.',
      files_touched: ['src/queue.ts'],
    });
    const newer = record({
      title: 'Moved the job queue from Redis to SQS',
      summary: 'The job queue now uses SQS instead of Redis; BullMQ is gone.',
      files_touched: ['src/queue.ts'],
    });
    expect(supersessionReason(newer, older)).toMatch(
      /^same file src\/queue\.ts; (?:says “|replaces redis)/,
    );
  });

  it('an edit that replaced what the older record says', () => {
    const older = record({
      title: 'Set the cache TTL — edited src/cache.ts',
      summary: 'Request: set the cache ttl',
      facts: ['Modified src/cache.ts: replaced `ttl: 60` with `ttl: 300`'],
      files_touched: ['src/cache.ts'],
    });
    const newer = record({
      title: 'Lower the cache TTL again — edited src/cache.ts',
      summary: 'Request: lower it',
      facts: ['Modified src/cache.ts: replaced `ttl: 300` with `ttl: 120`'],
      files_touched: ['src/cache.ts'],
    });
    expect(supersessionReason(newer, older)).toMatch(
      /^same file src\/cache\.ts; changed ttl: 300$/,
    );
  });

  it('an error fixed since', () => {
    const older = record({
      observation_type: 'error',
      title: 'TypeError in src/cart.test.ts > totals — unresolved',
      summary: '`npm test` failed.',
      files_touched: ['src/cart.test.ts'],
    });
    const newer = record({
      observation_type: 'error',
      title: 'TypeError in src/cart.test.ts > totals — fixed in src/cart.ts',
      summary: '`npm test` failed, then passed.',
      files_touched: ['src/cart.test.ts', 'src/cart.ts'],
    });
    expect(supersessionReason(newer, older)).toBe('the same error, fixed since');
  });

  it('never takes an activity log for a change of state: edits and commands of a later turn retire nothing', () => {
    const older = record({
      title: 'Add the cart total — edited src/checkout.ts',
      summary: 'Request: add the cart total',
      facts: [
        'Modified src/checkout.ts: replaced `total = 0` with `total = sum(items)`',
        'Ran `npm test` passed',
      ],
      files_touched: ['src/checkout.ts'],
    });
    const newer = record({
      title: 'Fix coupon rounding — edited src/checkout.ts',
      summary: 'Request: fix coupon rounding',
      facts: [
        'Modified src/checkout.ts: replaced `Math.round(x)` with `roundHalfUp(x)`',
        'Ran `npm test` passed (exit 0; 12 passed)',
      ],
      files_touched: ['src/checkout.ts'],
    });
    expect(supersessionReason(newer, older)).toBeUndefined();
    // Which file a turn read is no setting (`Read: a.py` then `Read: b.txt`).
    const reading = (file: string, asked: string) =>
      record({
        title: `${asked} — read ${file}`,
        summary: `Request: ${asked}`,
        facts: [`Read: ${file}`],
        files_touched: [file],
      });
    const readFirst = reading('hello_world.py', 'can you read the file back for me?');
    expect(supersessionReason(reading('data.txt', 'can you read the file back?'), readFirst)).toBe(
      undefined,
    );
    // Parts of one turn are merged, never superseded.
    const turn = { turn_prompt_id: '01J0000000000000000000TURN' };
    const a = record({ title: 'Timeout is 10 s', summary: 'The timeout is 10 s.', metadata: turn });
    const b = record({
      title: 'Timeout is 30 s',
      summary: 'The timeout is now 30 s.',
      metadata: turn,
    });
    expect(supersessionReason(b, a)).toBeUndefined();
  });

  it('an answer that restates the older record retires nothing, whatever change words it copies', () => {
    const older = record({
      title: 'Queue moved from Redis to SQS',
      summary: 'The jobs queue is now SQS instead of Redis; workers poll every 5 s.',
      observation_type: 'decision',
    });
    // The agent answered from the memory it was given; the built-in turn record.
    const answer = record({
      title: 'which queue do the jobs use — Queue moved from Redis to SQS',
      summary:
        'Request: which queue do the jobs use?\nOutcome: Queue moved from Redis to SQS. The jobs queue is now SQS instead of Redis; workers poll every 5 s.',
    });
    expect(supersessionReason(answer, older)).toBeUndefined();
    // A later turn that says something new still retires it.
    const moved = record({
      title: 'which queue do the jobs use — Queue moved from SQS to Kafka',
      summary:
        'Request: which queue do the jobs use?\nOutcome: The jobs queue is now Kafka instead of SQS.',
    });
    expect(supersessionReason(moved, older)).toBeDefined();
  });

  it('leaves alone what is only near: the same file for another reason, or another subject', () => {
    const older = record({
      title: 'Added a cart total',
      summary: 'checkout.ts sums the line items into the cart total.',
      files_touched: ['src/checkout.ts'],
    });
    const other = record({
      title: 'Fixed the coupon rounding',
      summary: 'Coupons now round half up in checkout.ts.',
      files_touched: ['src/checkout.ts'],
    });
    expect(supersessionReason(other, older)).toBeUndefined();
    const unrelated = record({
      title: 'Port is now 8080',
      summary: 'The dev server port is now 8080.',
    });
    expect(supersessionReason(unrelated, older)).toBeUndefined();
  });
});

describe('curating new records next to existing ones', () => {
  it('merges a near duplicate into the existing record instead of storing it again', () => {
    const existing = record({
      title: 'Pre-commit hook runs mix format and credo',
      summary: 'The pre-commit hook runs mix format, credo and dialyzer before every commit.',
      facts: ['Hook file: .githooks/pre-commit'],
    });
    const fresh = record({
      title: 'Pre-commit hook runs mix format and credo',
      summary: 'The pre-commit hook runs mix format, credo and dialyzer before every commit.',
      facts: ['Skip it with --no-verify'],
    });
    const { records, merged, superseded } = curateRecords({
      fresh: [fresh],
      existing: [existing],
      now: '2026-03-02T00:00:00.000Z',
    });
    expect(merged).toEqual([{ into: existing.record_id, from: fresh.record_id }]);
    expect(superseded).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      record_id: existing.record_id,
      facts: ['Hook file: .githooks/pre-commit', 'Skip it with --no-verify'],
      updated_at: '2026-03-02T00:00:00.000Z',
    });
    expect(records[0]!.source_event_ids).toEqual([
      ...existing.source_event_ids,
      ...fresh.source_event_ids,
    ]);
  });

  it('stores no record for a turn that only restated a record it was given, and leaves that one alone', () => {
    const older = record({
      title: 'Sessions moved from Postgres to Redis',
      summary:
        'Session lookups were a third of all database queries. Sessions now live in Redis with a 7-day sliding TTL.',
      files_touched: ['src/auth/sessionStore.ts'],
      observation_type: 'decision',
    });
    // The built-in turn record of an agent answering from the memory it was given; the
    // request's one-letter words and the title's ` — ` join nothing to the answer.
    const prompt = '01J0000000000000000000ASKD';
    const restatement = record({
      title: "company A could see company B's records — Sessions moved from Postgres to Redis",
      summary:
        "Request: company A could see company B's records!!\nOutcome: Sessions moved from Postgres to Redis. Session lookups were a third of all database queries.",
      metadata: { turn_prompt_id: prompt },
    });
    // Not put into the agent's context for that turn: the turn learned it some other way.
    expect(curateRecords({ fresh: [restatement], existing: [older] }).merged).toEqual([]);
    const injected = new Map([[prompt, new Set([older.record_id])]]);
    const { records, merged, superseded } = curateRecords({
      fresh: [restatement],
      existing: [older],
      injected,
    });
    expect(records).toEqual([]);
    expect(superseded).toEqual([]);
    expect(merged).toEqual([{ into: older.record_id, from: restatement.record_id }]);

    // An answer with news of its own is a record, and retires what it changed.
    const news = record({
      title: 'where do sessions live — Sessions moved from Redis to DynamoDB',
      summary:
        'Request: where do sessions live\nOutcome: Sessions moved from Redis to DynamoDB last week; the Redis keys expire on their own.',
    });
    const after = curateRecords({
      fresh: [{ ...news, metadata: { turn_prompt_id: prompt } }],
      existing: [older],
      injected,
    });
    expect(after.merged).toEqual([]);
    expect(after.records.map((r) => r.record_id)).toContain(news.record_id);
    expect(after.superseded.map((l) => l.recordId)).toEqual([older.record_id]);
  });

  it('links superseded records (kept, marked) and stores the new one; an extractor may name them', () => {
    const old = record({
      title: 'HTTP client timeout',
      summary: 'The request timeout is 10 s.',
      files_touched: ['src/http.ts'],
    });
    const named = record({ title: 'Retry policy', summary: 'Three retries with backoff.' });
    const fresh = record({
      title: 'Raised the HTTP client timeout',
      summary: 'The request timeout is 30 s now.',
      files_touched: ['src/http.ts'],
    });
    const { records, superseded } = curateRecords({
      fresh: [fresh],
      existing: [old, named],
      named: new Map([[fresh.record_id, [named.record_id]]]),
      now: '2026-03-02T00:00:00.000Z',
    });
    expect(superseded.map((s) => s.recordId).sort()).toEqual(
      [old.record_id, named.record_id].sort(),
    );
    const byId = new Map(records.map((r) => [r.record_id, r]));
    expect(byId.get(old.record_id)).toMatchObject({
      superseded_by: fresh.record_id,
      superseded_at: '2026-03-02T00:00:00.000Z',
    });
    expect(byId.get(named.record_id)?.superseded_reason).toBe('named by the extractor as replaced');
    expect(byId.get(fresh.record_id)?.superseded_by).toBeUndefined();
  });

  it('folds the parts of one long turn (extracted batch by batch) into one record, newest title first', () => {
    const turn = { turn_prompt_id: '01J0000000000000000000TURN' };
    const first = record({
      title: 'Work on bead spotter-4te — edited lib/a.ex',
      summary: 'Request: Work on bead spotter-4te',
      facts: ['Modified lib/a.ex'],
      files_touched: ['lib/a.ex'],
      metadata: turn,
    });
    const second = record({
      title: 'Work on bead spotter-4te — 1 unresolved error',
      summary: 'Request: Work on bead spotter-4te\nError: mix test failed.',
      facts: ['Ran `mix test` failed'],
      files_touched: ['test/a_test.exs'],
      metadata: turn,
    });
    const { records, merged } = curateRecords({ fresh: [second], existing: [first] });
    expect(merged).toEqual([{ into: first.record_id, from: second.record_id }]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      record_id: first.record_id,
      title: 'Work on bead spotter-4te — 1 unresolved error',
      facts: ['Modified lib/a.ex', 'Ran `mix test` failed'],
      files_touched: ['lib/a.ex', 'test/a_test.exs'],
    });
  });

  it('handles a chain within one batch: each newer record retires the one before', () => {
    const a = record({
      title: 'Worker concurrency',
      summary: 'Worker concurrency is 2.',
      files_touched: ['config/worker.yml'],
    });
    const b = record({
      title: 'Worker concurrency',
      summary: 'Worker concurrency is now 4.',
      files_touched: ['config/worker.yml'],
    });
    const c = record({
      title: 'Worker concurrency',
      summary: 'Worker concurrency is now 8 after the load test.',
      files_touched: ['config/worker.yml'],
    });
    const { records } = curateRecords({ fresh: [b, c], existing: [a] });
    const byId = new Map(records.map((r) => [r.record_id, r]));
    expect(byId.get(a.record_id)?.superseded_by).toBe(b.record_id);
    expect(byId.get(b.record_id)?.superseded_by).toBe(c.record_id);
    expect(byId.get(c.record_id)?.superseded_by).toBeUndefined();
  });
});
