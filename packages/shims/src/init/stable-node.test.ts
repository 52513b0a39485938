import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableNode } from './plan.js';

function fakeNode(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'node');
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('the Node a hook command starts', () => {
  const root = mkdtempSync(join(tmpdir(), 'kl-node-'));
  const wrapperNode = join(root, 'checkout', '.tools', 'node_modules', 'node', 'bin', 'node');

  it("is the running Node when that is not the wrapper's private one", () => {
    expect(stableNode('/usr/local/bin/node', { PATH: '/usr/bin' })).toBe('/usr/local/bin/node');
  });

  it('is a Node >= 20 on PATH outside .tools when init runs under the wrapper, so hooks survive moving the checkout', () => {
    const old = fakeNode(join(root, 'old'), '18.19.0');
    const system = fakeNode(join(root, 'system'), '20.20.2');
    const PATH = [
      join(root, 'checkout', '.tools', 'node_modules', '.bin'),
      join(root, 'old'),
      join(root, 'system'),
    ].join(':');
    expect(stableNode(wrapperNode, { PATH })).toBe(system);
    expect(stableNode(wrapperNode, { PATH: join(root, 'old') })).toBe(wrapperNode);
    void old;
  });
});
