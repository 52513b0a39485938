import { describe, expect, it } from 'vitest';
import { codeLines, deletedBy, removedBy } from './code-changes.js';

describe('what a command did to the project', () => {
  it('files deleted: git rm and rm, not --cached, absolute paths or globs', () => {
    expect(deletedBy('git rm -r app/navigation.tsx ./src/old.ts && pnpm test')).toEqual([
      'app/navigation.tsx',
      'src/old.ts',
    ]);
    expect(deletedBy('rm -f dist/*.js /tmp/x build')).toEqual(['build']);
    expect(deletedBy('git rm --cached .env')).toEqual([]);
    expect(deletedBy('npm run rm-old')).toEqual([]);
  });

  it('packages removed, by the usual package managers', () => {
    expect(removedBy('pnpm remove bullmq ioredis && pnpm add @aws-sdk/client-sqs')).toEqual([
      'bullmq',
      'ioredis',
    ]);
    expect(removedBy('npm uninstall --save @sentry/node@7')).toEqual(['@sentry/node']);
    expect(removedBy('python -m pip uninstall -y pandas==2.1')).toEqual(['pandas']);
    expect(removedBy('pnpm add pino')).toEqual([]);
  });

  it('lines of code worth comparing: trimmed, no blank or punctuation-only lines', () => {
    expect(codeLines('  const a =   1;\n\n};\n  )\nreturn a')).toEqual([
      'const a = 1;',
      'return a',
    ]);
  });
});
