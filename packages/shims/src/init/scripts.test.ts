import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookScriptVersion, installedHookScripts, refreshHookScripts } from './scripts.js';

let root: string;
let data: string;
let bundles: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kl-scripts-'));
  data = join(root, 'data');
  bundles = join(root, 'dist-bin');
  mkdirSync(join(data, 'bin'), { recursive: true });
  mkdirSync(bundles);
  writeFileSync(join(bundles, 'kiro.cjs'), '// kiro-learn hook script 0.2.0\nnew();\n');
  writeFileSync(join(bundles, 'claude-code.cjs'), '// kiro-learn hook script 0.2.0\nclaude();\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hook scripts in the data dir', () => {
  it('reads the version line a bundle starts with, after a hashbang too', () => {
    expect(hookScriptVersion('// kiro-learn hook script 1.4.2\nx();')).toBe('1.4.2');
    expect(hookScriptVersion('#!/usr/bin/env node\n// kiro-learn hook script 1.4.2\n')).toBe(
      '1.4.2',
    );
    expect(hookScriptVersion('var a=require("node:fs");')).toBeUndefined();
  });

  it('tells an old copy from a current one, and ignores files init did not write', () => {
    writeFileSync(join(data, 'bin', 'kiro-learn-kiro.cjs'), 'var old=1;\n');
    writeFileSync(
      join(data, 'bin', 'kiro-learn-claude-code.cjs'),
      readFileSync(join(bundles, 'claude-code.cjs')),
    );
    writeFileSync(join(data, 'bin', 'my-own-tool.cjs'), 'mine\n');
    expect(installedHookScripts(data, bundles)).toEqual([
      {
        file: join(data, 'bin', 'kiro-learn-claude-code.cjs'),
        source: join(bundles, 'claude-code.cjs'),
        version: '0.2.0',
        current: true,
      },
      {
        file: join(data, 'bin', 'kiro-learn-kiro.cjs'),
        source: join(bundles, 'kiro.cjs'),
        version: undefined,
        current: false,
      },
    ]);
  });

  it('refreshes only the old copies, keeping their mode, and adds none', () => {
    const old = join(data, 'bin', 'kiro-learn-kiro.cjs');
    writeFileSync(old, '// kiro-learn hook script 0.1.0\nold();\n');
    chmodSync(old, 0o700);
    expect(refreshHookScripts(data, bundles)).toEqual([old]);
    expect(readFileSync(old, 'utf8')).toBe('// kiro-learn hook script 0.2.0\nnew();\n');
    expect(statSync(old).mode & 0o777).toBe(0o700);
    expect(installedHookScripts(data, bundles).map((s) => s.file)).toEqual([old]);
    expect(refreshHookScripts(data, bundles)).toEqual([]);
  });

  it('finds nothing when init never ran', () => {
    rmSync(join(data, 'bin'), { recursive: true });
    expect(installedHookScripts(data, bundles)).toEqual([]);
    expect(refreshHookScripts(data, bundles)).toEqual([]);
  });
});
