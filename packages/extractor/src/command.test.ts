import { describe, expect, it } from 'vitest';
import { findExecutable, parseCommand } from './command.js';
import { createExtractor } from './select.js';

describe('agent command', () => {
  it('splits a command line with quotes and escapes, without a shell', () => {
    expect(parseCommand('kiro-cli acp --agent kiro-learn-compressor')).toEqual([
      'kiro-cli',
      'acp',
      '--agent',
      'kiro-learn-compressor',
    ]);
    expect(parseCommand(`"/opt/my agent/bin" --name 'a b' c\\ d ""`)).toEqual([
      '/opt/my agent/bin',
      '--name',
      'a b',
      'c d',
      '',
    ]);
    expect(() => parseCommand('  ')).toThrow(/empty/);
    expect(() => parseCommand('agent "open')).toThrow(/unclosed/);
  });

  it('finds programs on PATH', () => {
    expect(findExecutable('node', { PATH: process.execPath.replace(/\/node$/, '') })).toBe(
      process.execPath,
    );
    expect(findExecutable('kiro-learn-no-such-agent')).toBeUndefined();
  });

  it('falls back to the built-in extractor when the agent is not installed', () => {
    expect(createExtractor({ command: 'kiro-learn-no-such-agent acp' }).name).toBe('builtin');
    expect(createExtractor({ command: [process.execPath, 'agent.js'] }).name).toBe('acp');
    expect(createExtractor({ mode: 'builtin', command: [process.execPath] }).name).toBe('builtin');
  });
});
