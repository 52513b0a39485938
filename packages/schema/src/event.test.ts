import { describe, expect, it } from 'vitest';
import { EventSchema, LIMITS, newEventId, safeParse } from './index.js';

const valid = {
  event_id: newEventId(),
  session_id: 'sess_5b1f0e2a',
  actor_id: 'alice',
  namespace: '/actor/alice/project/payments-api/',
  schema_version: 1,
  kind: 'tool_use',
  body: { type: 'json', data: { tool_name: 'fs_read', tool_input: { path: 'src/a.ts' } } },
  valid_time: '2026-11-20T10:15:00.000+01:00',
  source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'shim' },
};

describe('EventSchema', () => {
  it('accepts a well-formed event and strips unknown fields', () => {
    const result = safeParse(EventSchema, { ...valid, extra: true });
    expect(result).toEqual({ ok: true, value: valid });
  });

  it('reports every problem as dot.path: message', () => {
    const result = safeParse(EventSchema, {
      ...valid,
      event_id: 'not-a-ulid',
      namespace: '/actor/alice/project/payments-api',
      body: { type: 'message', turns: [] },
      source: { surface: 'vim', version: '1', client_id: 'x' },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^event_id: must be a ULID/),
        expect.stringMatching(/^namespace: must look like/),
        expect.stringMatching(/^body\.turns: /),
        expect.stringMatching(/^source\.surface: /),
      ]),
    );
  });

  it('rejects a body over 1 MiB serialized, and accepts one just under', () => {
    const under = { type: 'text', content: 'x'.repeat(LIMITS.bodyBytes - 40) };
    const over = { type: 'text', content: 'é'.repeat(LIMITS.bodyBytes / 2) };
    expect(safeParse(EventSchema, { ...valid, body: under }).ok).toBe(true);
    const result = safeParse(EventSchema, { ...valid, body: over });
    expect(result.ok ? [] : result.errors).toEqual([
      expect.stringMatching(/^body: body is \d+ bytes serialized/),
    ]);
  });

  it('requires an offset on valid_time', () => {
    expect(safeParse(EventSchema, { ...valid, valid_time: '2026-11-20T10:15:00' }).ok).toBe(false);
    expect(safeParse(EventSchema, { ...valid, valid_time: '2026-11-20T10:15:00Z' }).ok).toBe(true);
  });
});
