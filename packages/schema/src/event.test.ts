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
    expect(result).toEqual({
      ok: true,
      value: { ...valid, valid_time: '2026-11-20T09:15:00.000Z' },
    });
  });

  it('normalises valid_time to UTC, so times sort as strings', () => {
    const times = [
      '2026-11-20T10:15:00.5+02:00',
      '2026-11-20T09:00:00Z',
      '2026-11-20T03:30:00-05:00',
    ];
    const parsed = times.map((t) => {
      const result = safeParse(EventSchema, { ...valid, valid_time: t });
      return result.ok ? result.value.valid_time : result.errors.join();
    });
    expect(parsed).toEqual([
      '2026-11-20T08:15:00.500Z',
      '2026-11-20T09:00:00.000Z',
      '2026-11-20T08:30:00.000Z',
    ]);
    expect([...parsed].sort()).toEqual([parsed[0], parsed[2], parsed[1]]);
  });

  it('refuses NUL, control, bidi and unpaired surrogate characters in namespaces and ids', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { namespace: '/actor/alice/project/pay\uD800/' },
        /^namespace: contains an unpaired surrogate \(U\+D800\) at index 24/,
      ],
      [
        { namespace: '/actor/alice/project/pay\uDC00/' },
        /^namespace: contains an unpaired surrogate/,
      ],
      [
        { namespace: '/actor/al\u202Eice/project/p/' },
        /^namespace: contains a bidirectional control/,
      ],
      [
        { session_id: 'sess\u0000' },
        /^session_id: contains NUL \(U\+0000\) at index 4; an id must not contain/,
      ],
      [{ actor_id: 'a\u0007' }, /^actor_id: contains a control character/],
      [
        { source: { ...valid.source, client_id: 'x\u2067' } },
        /^source\.client_id: contains a bidirectional control/,
      ],
    ];
    for (const [patch, message] of cases) {
      const result = safeParse(EventSchema, { ...valid, ...patch });
      expect(result.ok ? [] : result.errors).toEqual([expect.stringMatching(message)]);
    }
    const emoji = safeParse(EventSchema, {
      ...valid,
      namespace: '/actor/alice/project/p-\uD83D\uDE00/',
    });
    expect(emoji.ok).toBe(true);
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

  it('refuses a body nested past the depth limit without exhausting the stack', () => {
    let data: unknown = 1;
    for (let i = 0; i < 200_000; i++) data = [data];
    const result = safeParse(EventSchema, { ...valid, body: { type: 'json', data } });
    expect(result.ok ? [] : result.errors).toEqual([
      `body: body nests deeper than ${LIMITS.jsonDepth} levels, counting the event`,
    ]);
    let ok: unknown = 1;
    for (let i = 0; i < LIMITS.jsonDepth - 3; i++) ok = [ok];
    expect(safeParse(EventSchema, { ...valid, body: { type: 'json', data: ok } }).ok).toBe(true);
  });

  it('requires an offset on valid_time', () => {
    expect(safeParse(EventSchema, { ...valid, valid_time: '2026-11-20T10:15:00' }).ok).toBe(false);
    expect(safeParse(EventSchema, { ...valid, valid_time: '2026-11-20T10:15:00Z' }).ok).toBe(true);
  });
});
