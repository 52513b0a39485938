import { describe, expect, it } from 'vitest';
import { promptFromBody } from './prompt.js';

describe('promptFromBody', () => {
  it('reads text, the last message turn, and serialized json', () => {
    expect(promptFromBody({ type: 'text', content: 'why is CI red' })).toBe('why is CI red');
    expect(
      promptFromBody({
        type: 'message',
        turns: [
          { role: 'user', content: 'earlier question' },
          { role: 'user', content: 'the current one' },
        ],
      }),
    ).toBe('the current one');
    expect(promptFromBody({ type: 'json', data: { prompt: 'fix rate_limit' } })).toBe(
      '{"prompt":"fix rate_limit"}',
    );
    expect(promptFromBody({ type: 'json', data: 'plain string' })).toBe('plain string');
  });

  it('gives an empty query for data that cannot be serialized', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(promptFromBody({ type: 'json', data: cyclic })).toBe('');
  });
});
