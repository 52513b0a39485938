import { describe, expect, it } from 'vitest';
import { withinProject } from './tool-use.js';

describe('withinProject: the project’s own absolute path made relative', () => {
  const root = '/home/dev/src/shop';
  it('in commands and output', () => {
    expect(
      withinProject('python /home/dev/src/shop/tools/gen.py --out /home/dev/src/shop/out', root),
    ).toBe('python tools/gen.py --out out');
    expect(withinProject('cd /home/dev/src/shop && pnpm test', root)).toBe('cd . && pnpm test');
    expect(withinProject(`File "/home/dev/src/shop/a.py", line 3`, `${root}/`)).toBe(
      'File "a.py", line 3',
    );
  });
  it('leaves other paths alone, including ones that only start alike', () => {
    for (const text of [
      'cat /home/dev/src/shop-api/x.ts',
      'ls /opt/home/dev/src/shop/x',
      'cat ~/.claude/settings.json /tmp/x',
    ])
      expect(withinProject(text, root)).toBe(text);
    expect(withinProject('python /x.py', undefined)).toBe('python /x.py');
  });
});
