// Memory records as tests write them: valid (schema's newRecord: fresh ids, created now),
// with the fields a test does not care about filled in, and `overrides` on top. Shared by
// the storage, retrieval, team and collector tests.
import { buildNamespace, type MemoryRecord, newRecord } from '@kiro-learn/schema';

/** Alice's payments-api project: the namespace most tests write to. */
export const NS = '/actor/alice/project/payments-api/';

/** A built-in record in NS. */
export function record(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const base = newRecord({
    namespace: NS,
    strategy: 'builtin',
    title: 'A memory',
    summary: 'Something that happened.',
  });
  return { ...base, ...overrides };
}

/** The project a team shares (its id as a member's collector computes it). */
export const TEAM_PROJECT = 'github.com-acme-payments-api';

/** A memory record as a team member's machine has it, before it is shared. */
export function memberRecord(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const base = newRecord({
    namespace: buildNamespace('alice', TEAM_PROJECT),
    strategy: 'llm-summary',
    title: 'Stripe webhooks need the raw body',
    summary: 'express.json() consumed the body, so signature verification failed.',
    facts: ['mount express.raw() on the webhook route'],
    concepts: ['stripe', 'webhooks'],
    files_touched: ['src/webhooks/stripe.ts'],
  });
  return { ...base, ...overrides };
}

/**
 * Text that breaks a naive query builder: full-text operators and syntax, unbalanced
 * quotes and parentheses, a NUL, a lone surrogate, 20,000 characters. Searches and
 * retrievals take each without an error.
 */
export const HOSTILE_TEXTS: readonly string[] = [
  '"',
  '""',
  '(',
  ')',
  'NEAR(a b)',
  'a AND',
  'OR OR',
  '*',
  '^x',
  'col:term',
  '\u0000',
  '\ud800',
  'x'.repeat(20_000),
  '"unclosed',
];
