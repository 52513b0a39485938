import { describe, expect, it } from 'vitest';
import { reconcileFacts } from './integrity.js';

describe('integrity check of a summary pass', () => {
  const previous = {
    facts: { database: 'postgres', 'test command': 'pnpm test', port: '3000' },
    obsolete: ['old flag'],
  };

  it('carries a dropped fact forward, removes an obsolete key, notes a changed value', () => {
    const result = reconcileFacts(previous, {
      facts: { database: 'sqlite', 'build command': 'pnpm build' },
      obsolete: ['port'],
    });
    expect(result.facts).toEqual({
      database: 'sqlite',
      'test command': 'pnpm test',
      'build command': 'pnpm build',
    });
    expect(result.obsolete).toEqual(['old flag', 'port']);
    expect(result.changed).toEqual([{ key: 'database', from: 'postgres', to: 'sqlite' }]);
    expect(result.carried).toEqual(['test command']);
    expect(result.repairs).toEqual([
      'kept "test command": the summarizer dropped it without marking it obsolete',
    ]);
  });

  it('keeps an obsolete key from coming back, even when the summarizer both keeps and retires it', () => {
    const result = reconcileFacts(previous, {
      facts: { ...previous.facts, 'old flag': 'on', port: '4000' },
      obsolete: ['port'],
    });
    expect(result.facts).toEqual({ database: 'postgres', 'test command': 'pnpm test' });
    expect(result.revived).toEqual(['old flag']);
    expect(result.repairs).toEqual([
      'removed "old flag" again: it was marked obsolete on an earlier pass',
    ]);
  });
});
