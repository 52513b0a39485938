import { EventSchema, LIMITS } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { EventParser } from './ingest.js';

const valid = {
  event_id: '01JD0000000000000000000000',
  session_id: 'sess-1',
  actor_id: 'alice',
  namespace: '/actor/alice/project/payments-api/',
  schema_version: 1,
  kind: 'tool_use',
  body: { type: 'json', data: { tool_name: 'fs_write', tool_input: { path: 'src/a.ts' } } },
  valid_time: '2026-11-22T10:00:00.000+01:00',
  source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'c', project_path: '/src/p' },
};

// Each entry changes one thing; the compiled parser must agree with the schema on all.
const inputs: unknown[] = [
  valid,
  { ...valid, unknown_field: 'dropped' },
  {
    ...valid,
    parent_event_id: '01JD0000000000000000000001',
    content_hash: `sha256:${'a'.repeat(64)}`,
  },
  { ...valid, body: { type: 'text', content: 'hello' } },
  { ...valid, body: { type: 'message', turns: [{ role: 'user', content: 'hi' }] } },
  { ...valid, body: { type: 'message', turns: [] } },
  { ...valid, body: { type: 'text', content: 'x'.repeat(LIMITS.bodyBytes) } },
  { ...valid, body: { type: 'json', data: 'é'.repeat(LIMITS.bodyBytes / 2) } },
  { ...valid, body: { type: 'html', content: 'x' } },
  { ...valid, event_id: 'not-a-ulid' },
  { ...valid, namespace: '/actor/alice/project/p' },
  { ...valid, schema_version: 2 },
  { ...valid, kind: 'other' },
  { ...valid, valid_time: '2026-11-22T10:00:00' },
  { ...valid, session_id: '' },
  { ...valid, actor_id: 'a'.repeat(LIMITS.idLength + 1) },
  { ...valid, source: { ...valid.source, surface: 'vim' } },
  { ...valid, content_hash: 'sha256:ABC' },
  { ...valid, kind: undefined },
  [],
  null,
  'event',
];

describe('EventParser', () => {
  it.each(inputs.map((input, i) => [i, input]))(
    'agrees with EventSchema on input %i',
    (_i, input) => {
      const fast = EventParser.safeParse(input);
      const reference = EventSchema.safeParse(input);
      expect(fast.success).toBe(reference.success);
      if (fast.success && reference.success) expect(fast.data).toEqual(reference.data);
      else expect(fast.error?.issues).toEqual(reference.error?.issues);
    },
  );
});
