import { type Event, newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { digestEvent } from './digest.js';

const read = (content: string): Event => ({
  event_id: newEventId(),
  session_id: 's',
  actor_id: 'a',
  namespace: '/actor/a/project/p/',
  schema_version: 1,
  kind: 'tool_use',
  body: {
    type: 'json',
    data: {
      tool_name: 'fs_read',
      tool_input: { path: 'src/"quoted" ü.ts', lines: [1, 2] },
      tool_response: { success: true, result: [content] },
    },
  },
  valid_time: '2025-01-01T00:00:00.000Z',
  source: { surface: 'kiro-cli', version: '1', client_id: 'c' },
});

describe('digests of huge fields', () => {
  it('keeps short fields verbatim, digests the huge one, and stays valid JSON of the same shape', () => {
    const body = `${'é'.repeat(10)}"line"\n${'x'.repeat(50_000)}`;
    const event = read(body);
    const digested = digestEvent(event, 2000);
    const data = JSON.parse(JSON.stringify(digested.body)).data;
    expect(data.tool_name).toBe('fs_read');
    expect(data.tool_input).toEqual({ path: 'src/"quoted" ü.ts', lines: [1, 2] });
    expect(data.tool_response.success).toBe(true);
    const digest: string = data.tool_response.result[0];
    expect(digest).toContain(`${body.length} chars`);
    expect(digest).toMatch(/sha256:[0-9a-f]{12}/);
    expect(digest).toContain(event.event_id);
    expect(digest).toContain(JSON.stringify(body.slice(0, 40)).slice(1, -1));
    expect(digest.length).toBeLessThan(400);
    // The stored event is untouched.
    expect(
      (event.body as { data: { tool_response: { result: string[] } } }).data.tool_response
        .result[0],
    ).toBe(body);
  });

  it('returns an event with nothing huge as it is', () => {
    const event = read('short');
    expect(digestEvent(event, 2000).body).toEqual(event.body);
  });
});
