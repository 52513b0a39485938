import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atLeast, chooseNode } from './node.js';

function fakeNode(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'node');
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('the Node hooks and the MCP server run on', () => {
  const root = mkdtempSync(join(tmpdir(), 'kl-node-'));
  const wrapperNode = fakeNode(
    join(root, 'checkout', '.tools', 'node_modules', 'node', 'bin'),
    '22.22.0',
  );

  it('is never older than the floor: 20.16 for hooks (process.getBuiltinModule)', () => {
    fakeNode(join(root, 'old'), '20.15.1');
    const ok = fakeNode(join(root, 'ok'), '20.16.0');
    expect(
      chooseNode(wrapperNode, { PATH: [join(root, 'old'), join(root, 'ok')].join(':') }).path,
    ).toBe(ok);
    expect(atLeast('20.15.1', '20.16.0')).toBe(false);
    expect(atLeast('22.0.0', '20.16.0')).toBe(true);
  });

  it("is not the wrapper's private Node under .tools when another qualifies, so hooks survive moving the checkout", () => {
    const system = fakeNode(join(root, 'system'), '22.12.0');
    const PATH = [
      join(root, 'checkout', '.tools', 'node_modules', '.bin'),
      join(root, 'system'),
    ].join(':');
    expect(chooseNode(wrapperNode, { PATH }).path).toBe(system);
    // Nothing else qualifies (the MCP server's floor is 22): the private one is better than none.
    expect(chooseNode(wrapperNode, { PATH: join(root, 'old') }, '22.0.0').path).toBe(wrapperNode);
  });
});
