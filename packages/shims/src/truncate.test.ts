import { LIMITS, TRUNCATION_MARKER, utf8Length } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { capBody, prefixBytes } from './truncate.js';

const size = (value: unknown) => utf8Length(JSON.stringify(value));
const MiB = 1024 * 1024;

describe('capBody', () => {
  it('leaves bodies within the cap untouched', () => {
    const body = { type: 'text' as const, content: 'short' };
    expect(capBody(body)).toEqual({ body, truncated: false });
  });

  it('cuts a 5 MiB tool response first and keeps the tool input whole', () => {
    const body = {
      type: 'json' as const,
      data: {
        tool_name: 'execute_bash',
        tool_input: { command: 'cat big.log' },
        tool_response: { success: true, result: ['line "quoted"\n'.repeat((5 * MiB) / 16)] },
      },
    };
    const { body: capped, truncated } = capBody(body);
    expect(truncated).toBe(true);
    expect(size(capped)).toBeLessThanOrEqual(LIMITS.shimBodyBytes);
    expect(size(capped)).toBeGreaterThan(LIMITS.shimBodyBytes - 1024);
    const data = (capped as typeof body).data as unknown as Record<string, unknown>;
    expect(data['tool_input']).toEqual({ command: 'cat big.log' });
    expect(data['tool_response']).toMatch(/^\{"success":true,"result":\["line \\"quoted\\"/);
    expect(String(data['tool_response']).endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('cuts text from the end with the marker, never splitting a character', () => {
    const content = `start ${'€😀'.repeat(MiB / 4)}`;
    const { body } = capBody({ type: 'text', content }, 1000);
    const text = (body as { content: string }).content;
    expect(text.startsWith('start €😀')).toBe(true);
    expect(text.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(text).not.toContain('\uFFFD');
    expect(size(body)).toBeLessThanOrEqual(1000);
  });

  it('trims the last turns of a message first', () => {
    const turns = [
      { role: 'user', content: 'the question' },
      { role: 'assistant', content: 'a'.repeat(5000) },
      { role: 'assistant', content: 'b'.repeat(5000) },
    ];
    const { body } = capBody({ type: 'message', turns }, 3000);
    const kept = (body as { turns: typeof turns }).turns;
    expect(size(body)).toBeLessThanOrEqual(3000);
    expect(kept[0]).toEqual(turns[0]);
    expect(kept).toHaveLength(2);
    expect(kept[1]!.content.endsWith(TRUNCATION_MARKER)).toBe(true);
  });
});

describe('prefixBytes', () => {
  it('keeps whole characters only', () => {
    expect(prefixBytes('a€b', 3)).toBe('a');
    expect(prefixBytes('a😀', 4)).toBe('a');
    expect(prefixBytes('a😀', 5)).toBe('a😀');
  });
});
