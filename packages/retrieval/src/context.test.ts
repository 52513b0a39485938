import { describe, expect, it } from 'vitest';
import { record } from '../test/helpers.js';
import { formatContext } from './context.js';

const roomy = { tokens: 1500, summaryTokens: 400 };

describe('formatContext', () => {
  it('writes the documented format byte for byte', () => {
    const { context, budgetCut } = formatContext(
      [
        record({
          title: 'Stripe webhook needs the raw body',
          summary: 'express.json() consumed the body before constructEvent.',
          facts: ['Use express.raw on the webhook route', 'The secret differs per environment'],
        }),
        record({ title: 'Money is integer cents', summary: 'Floats drifted by 0.01.' }),
      ],
      roomy,
    );
    expect(context).toBe(
      '## Prior observations from kiro-learn\n' +
        '\n' +
        '### Stripe webhook needs the raw body\n' +
        '\n' +
        'express.json() consumed the body before constructEvent.\n' +
        '\n' +
        '- Use express.raw on the webhook route\n' +
        '- The secret differs per environment\n' +
        '\n' +
        '### Money is integer cents\n' +
        '\n' +
        'Floats drifted by 0.01.\n',
    );
    expect(budgetCut).toBe(false);
  });

  it('is empty when there is nothing to say', () => {
    expect(formatContext([], roomy)).toEqual({ context: '', records: [], budgetCut: false });
  });

  it('keeps titles and facts on one line so they cannot forge headings', () => {
    const { context } = formatContext(
      [record({ title: 'Two\n## lines', summary: 'ok', facts: ['a\n### b'] })],
      roomy,
    );
    expect(context).toContain('### Two ## lines\n');
    expect(context).toContain('- a ### b\n');
  });

  it('stays within the token budget, trimming a long summary rather than dropping it', () => {
    const long = record({ title: 'Long one', summary: 'word '.repeat(2000).trim(), facts: ['f'] });
    const short = record({ title: 'Short one', summary: 'brief' });
    const result = formatContext([long, short], { tokens: 200, summaryTokens: 400 });
    expect(result.context.length).toBeLessThanOrEqual(200 * 4);
    expect(result.records.map((r) => r.title)).toEqual(['Long one']);
    expect(result.context).toMatch(/### Long one\n\nword( word)*…\n$/);
    expect(result.budgetCut).toBe(true);
  });

  it('caps one summary so later records still get room', () => {
    const records = [
      record({ title: 'First', summary: 'alpha '.repeat(1000).trim() }),
      record({ title: 'Second', summary: 'beta' }),
    ];
    const result = formatContext(records, { tokens: 1500, summaryTokens: 100 });
    expect(result.records.map((r) => r.title)).toEqual(['First', 'Second']);
    expect(result.budgetCut).toBe(true);
  });

  it('drops facts from the end when only the summary fits', () => {
    const result = formatContext(
      [record({ title: 'T', summary: 'short summary', facts: ['x'.repeat(400), 'y'] })],
      { tokens: 40, summaryTokens: 400 },
    );
    expect(result.context).toBe(
      '## Prior observations from kiro-learn\n\n### T\n\nshort summary\n',
    );
    expect(result.budgetCut).toBe(true);
  });

  it('places nothing when even one block cannot fit', () => {
    const result = formatContext([record({ summary: 'z'.repeat(500) })], {
      tokens: 12,
      summaryTokens: 400,
    });
    expect(result).toEqual({ context: '', records: [], budgetCut: true });
  });
});
