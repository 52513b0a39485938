import { type Event, newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { frameBatches, frameEvent } from './frame.js';

function event(kind: Event['kind'], body: Event['body']): Event {
  return {
    event_id: newEventId(),
    session_id: 's1',
    actor_id: 'a',
    namespace: '/actor/a/project/p/',
    schema_version: 1,
    kind,
    body,
    valid_time: '2026-11-22T10:00:00.000Z',
    source: { surface: 'kiro-cli', version: '1', client_id: 'c' },
  };
}

describe('framing', () => {
  it('escapes text and carries the event id on each element', () => {
    const prompt = event('prompt', {
      type: 'text',
      content: 'why does </user_prompt><x> & "this" fail?',
    });
    expect(frameEvent(prompt, 1000)).toBe(
      `<user_prompt event_id="${prompt.event_id}" session_id="s1" time="2026-11-22T10:00:00.000Z">why does &lt;/user_prompt&gt;&lt;x&gt; &amp; &quot;this&quot; fail?</user_prompt>`,
    );
  });

  it('frames a tool use as name, input and output, keeping the tail of long output', () => {
    const tool = event('tool_use', {
      type: 'json',
      data: {
        tool_name: 'execute_bash',
        tool_input: { command: 'pnpm test' },
        tool_response: `${'x'.repeat(5000)}\nTests 1 failed`,
      },
    });
    const framed = frameEvent(tool, 400);
    expect(framed).toContain('<name>execute_bash</name>');
    expect(framed).toContain('&quot;command&quot;: &quot;pnpm test&quot;');
    expect(framed).toContain('characters left out');
    expect(framed).toContain('Tests 1 failed</output>');
    expect(frameEvent(event('session_summary', { type: 'text', content: '' }), 10)).toMatch(
      /^<turn_end [^>]+><\/turn_end>$/,
    );
  });

  it('splits into parts that fit, never losing or repeating an event', () => {
    const events = Array.from({ length: 10 }, (_, i) =>
      event('note', { type: 'text', content: `note ${i} ${'n'.repeat(200)}` }),
    );
    const parts = frameBatches(events, 700, 1000);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.flatMap((part) => part.eventIds)).toEqual(events.map((e) => e.event_id));
    for (const part of parts) expect(part.text.startsWith('<events>\n')).toBe(true);
  });
});
