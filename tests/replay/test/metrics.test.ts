import type { MemoryRecord } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { hasPathInText } from '../src/metrics.ts';

const record = (facts: string[]) =>
  ({ title: 'A title of words', summary: 'S.', facts }) as MemoryRecord;

describe('hasPathInText: a machine path in what a record says', () => {
  it('finds home, temp and system paths', () => {
    for (const fact of [
      'Ran `python3 /Users/pete/.claude/plugins/x.py` ran',
      'Ran `tail -5 /tmp/claude-1000/tasks/b.output` ran',
      'Read ~/.claude/settings.json',
      'Opened C:\\Users\\dev\\x.txt',
    ])
      expect(hasPathInText(record([fact])), fact).toBe(true);
  });
  it('not /dev/null, URL paths or relative paths', () => {
    for (const fact of [
      'Ran `curl -s -o /dev/null https://example.com/home/x` ran',
      'replaced `href="/assets/app.css"`',
      'Modified src/home/tmp.ts',
    ])
      expect(hasPathInText(record([fact])), fact).toBe(false);
  });
});
