import { describe, expect, it } from 'vitest';
import { checkCompactionOptions, policyOf, resolveCompactionOptions } from './options.js';

describe('compaction settings', () => {
  it('fills defaults: trigger at 0.75 of the prompt budget, critical kinds, per-kind policies', () => {
    const options = resolveCompactionOptions({ maxPromptTokens: 40_000 });
    expect(options.triggerTokens).toBe(30_000);
    expect(Object.isFrozen(options)).toBe(true);
    expect(policyOf('prompt', options)).toBe('critical');
    expect(policyOf('command', options)).toBe('keep_structured');
    expect(policyOf('file_read', options)).toBe('summarize_archive');
  });

  it('resolves critical, then the override, then the kind default, then the global default', () => {
    const options = resolveCompactionOptions({
      retention: { command: 'drop', note: 'keep_full' },
      defaultPolicy: 'drop',
      critical: ['prompt'],
    });
    expect(policyOf('prompt', options)).toBe('critical');
    expect(policyOf('command', options)).toBe('drop');
    expect(policyOf('note', options)).toBe('keep_full');
    expect(policyOf('file_write', options)).toBe('keep_structured');
    expect(policyOf('error', options)).toBe('drop');
  });

  it('reports every problem as a dot.path message, including the rules between fields', () => {
    expect(
      checkCompactionOptions({
        maxPromptTokens: 10_000,
        triggerTokens: 12_000,
        critical: ['prompt', 'errors'],
        retention: { prompt: 'drop', file_read: 'shred', nope: 'drop' },
        colour: 'blue',
      }),
    ).toEqual([
      'compaction.colour: unknown setting',
      'compaction.triggerTokens: must be less than compaction.maxPromptTokens (10000)',
      'compaction.critical.1: unknown kind "errors"; known: prompt, turn_end, error, command, file_write, file_read, search, tool, note',
      'compaction.retention.prompt: prompt is critical and never reduced; remove it from compaction.critical to give it a policy',
      'compaction.retention.file_read: unknown policy "shred"; use one of keep_full, keep_structured, summarize_archive, drop',
      'compaction.retention.nope: unknown kind; known: prompt, turn_end, error, command, file_write, file_read, search, tool, note',
    ]);
    expect(checkCompactionOptions({ protectedTail: -1 }, 'buffer.compaction')).toEqual([
      'buffer.compaction.protectedTail: must be a whole number of at least 0, not -1',
    ]);
    expect(checkCompactionOptions('yes')).toEqual(['compaction: must be an object']);
    expect(() => resolveCompactionOptions({ summarizerTokens: 100 })).toThrow(
      expect.objectContaining({
        code: 'invalid_options',
        details: [
          'compaction.summarizerTokens: must be between 500 and compaction.maxPromptTokens (50000)',
        ],
      }),
    );
  });
});
