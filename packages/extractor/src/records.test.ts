import { LIMITS, MemoryRecordSchema, newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { toRecord } from './records.js';

const ids = [newEventId(), newEventId()];
const context = { namespace: '/actor/a/project/p/', batchIds: ids, strategy: 'llm-summary' };
const draft = {
  type: 'decision',
  title: 'T',
  summary: 'S',
  facts: [],
  concepts: [],
  files: [],
  sources: [],
};

describe('toRecord', () => {
  it('cuts over-long fields to the schema limits instead of dropping the record', () => {
    const record = toRecord(
      {
        ...draft,
        title: 'x'.repeat(500),
        summary: 'y'.repeat(9000),
        facts: ['z'.repeat(900), ' ', 'z'.repeat(900)],
      },
      context,
    )!;
    expect(MemoryRecordSchema.safeParse(record).success).toBe(true);
    expect(record.title).toHaveLength(LIMITS.titleLength);
    expect(record.title.endsWith('…')).toBe(true);
    expect(record.summary).toHaveLength(LIMITS.summaryLength);
    expect(record.facts).toHaveLength(1);
  });

  it('keeps only citations of events in the batch, and cites the whole batch when none remain', () => {
    expect(
      toRecord({ ...draft, sources: [ids[1]!, 'bogus', newEventId()] }, context)!.source_event_ids,
    ).toEqual([ids[1]]);
    expect(toRecord({ ...draft, sources: ['bogus'] }, context)!.source_event_ids).toEqual(ids);
  });

  it('rejects an unknown type or an empty title', () => {
    expect(toRecord({ ...draft, type: 'opinion' }, context)).toBeUndefined();
    expect(toRecord({ ...draft, title: '  ' }, context)).toBeUndefined();
  });
});
