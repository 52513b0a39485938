import { describe, expect, it } from 'vitest';
import { commands, fencedBlocks, skipReason } from './blocks.js';

const page = [
  '# Title',
  '```sh',
  '# a comment line is not a command',
  'kiro-learn status   # exits 1 when it is down',
  'curl -s http://127.0.0.1:21100/healthz \\',
  "  -H 'Accept: application/json'",
  "cat > event.json <<'EOF'",
  '{"kind": "note"}',
  'EOF',
  '```',
  '```sh',
  '# not run by the docs test: opens a browser',
  'open http://127.0.0.1:21100/ui/',
  '```',
].join('\n');

describe('reading the docs', () => {
  it('splits sh blocks into commands with their declared exit codes and lines', () => {
    const [first, second] = fencedBlocks(page);
    expect(commands(first!)).toEqual([
      { text: 'kiro-learn status   # exits 1 when it is down', line: 4, exits: 1 },
      {
        text: "curl -s http://127.0.0.1:21100/healthz \\\n  -H 'Accept: application/json'",
        line: 5,
        exits: 0,
      },
      { text: 'cat > event.json <<\'EOF\'\n{"kind": "note"}\nEOF', line: 7, exits: 0 },
    ]);
    expect(skipReason(first!)).toBeUndefined();
    expect(skipReason(second!)).toBe('opens a browser');
  });

  it('refuses a page with an unclosed block', () => {
    expect(() => fencedBlocks('```sh\nkiro-learn start\n')).toThrow(
      /unclosed code block at line 1/,
    );
  });
});
