import { describe, expect, it } from 'vitest';
import { safeParse } from './errors.js';
import { LIMITS } from './limits.js';
import { MemoryRecordSchema } from './memory.js';

const valid = {
  record_id: 'mr_01JDQ3Z8N4V6X2K9R7T5M1P0AB',
  namespace: '/actor/dev/project/app/',
  strategy: 'builtin',
  title: 'A title',
  summary: 'A summary.',
  facts: [],
  concepts: [],
  files_touched: [],
  observation_type: 'discovery',
  source_event_ids: ['01JDQ3Z8N4V6X2K9R7T5M1P0AB'],
  created_at: '2026-11-20T10:15:00Z',
};

describe('MemoryRecordSchema metadata', () => {
  it('refuses metadata nested past the depth limit in plain words, without exhausting the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const result = safeParse(MemoryRecordSchema, { ...valid, metadata: { deep } });
    expect(result.ok ? [] : result.errors).toEqual([
      `metadata: metadata must nest at most ${LIMITS.jsonDepth - 1} levels deep`,
    ]);
    let ok: unknown = 1;
    for (let i = 0; i < LIMITS.jsonDepth - 3; i++) ok = [ok];
    expect(safeParse(MemoryRecordSchema, { ...valid, metadata: { ok } }).ok).toBe(true);
  });

  it('refuses metadata that serializes past its byte limit', () => {
    const result = safeParse(MemoryRecordSchema, {
      ...valid,
      metadata: { text: 'x'.repeat(LIMITS.metadataBytes) },
    });
    expect(result.ok ? [] : result.errors).toEqual([
      `metadata: metadata must serialize to at most ${LIMITS.metadataBytes} bytes`,
    ]);
  });
});
