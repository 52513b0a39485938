import { describe, expect, it } from 'vitest';
import { SchemaError } from './errors.js';
import { isRecordId, isUlid } from './ids.js';
import { MemoryRecordSchema } from './memory.js';
import { buildNamespace } from './namespace.js';
import { newRecord } from './new-record.js';

const namespace = buildNamespace('alice', 'payments-api');

describe('newRecord', () => {
  it('fills every field the schema needs, and keeps what it is given', () => {
    const record = newRecord({
      namespace,
      title: 'Stripe webhooks need the raw body',
      summary: 'express.json() broke signature verification; use express.raw().',
      concepts: ['stripe'],
    });
    expect(MemoryRecordSchema.parse(record)).toEqual(record);
    expect(isRecordId(record.record_id)).toBe(true);
    expect(record.source_event_ids).toHaveLength(1);
    expect(isUlid(record.source_event_ids[0]!)).toBe(true);
    expect(record).toMatchObject({
      strategy: 'manual',
      observation_type: 'discovery',
      facts: [],
      concepts: ['stripe'],
      files_touched: [],
    });
    expect(Date.parse(record.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses an invalid field with its dot.path', () => {
    const call = () => newRecord({ namespace, title: '', summary: 'x' });
    expect(call).toThrow(SchemaError);
    try {
      call();
    } catch (error) {
      expect((error as SchemaError).issues).toEqual([expect.stringMatching(/^title: /)]);
    }
  });
});
