import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from './pack.js';

// schema and storage, installed from their tarballs into an empty project (the install of
// global-setup.ts), import and work, and their published types compile in a consumer's
// strict TypeScript.
let project: string;
beforeAll(() => {
  project = inject('fresh').installed;
});

describe('npm pack tarballs', () => {
  it('@kiro-learn/schema and @kiro-learn/storage install and run in an empty project', () => {
    writeFileSync(
      join(project, 'use.mjs'),
      `import { buildNamespace, newEventId, newRecordId, MemoryRecordSchema } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
const namespace = buildNamespace('alice', 'demo');
const record = MemoryRecordSchema.parse({ record_id: newRecordId(), namespace, strategy: 'test', title: 'Packed storage works',
  summary: 'Installed from a tarball.', facts: [], concepts: [], files_touched: [], observation_type: 'discovery',
  source_event_ids: [newEventId()], created_at: new Date().toISOString() });
const storage = await openSqliteStorage({ path: new URL('./data/db.sqlite', import.meta.url).pathname });
await storage.putRecord(record);
const hits = await storage.searchRecords({ namespace, query: 'is packed storage working?', limit: 1 });
console.log(hits[0].record.title);
await storage.close();
`,
    );
    expect(
      execFileSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8' }).trim(),
    ).toBe('Packed storage works');
  });

  it('their types compile in a strict consumer', () => {
    writeFileSync(
      join(project, 'use.ts'),
      `import { type Event, EventSchema } from '@kiro-learn/schema';
import { openSqliteStorage, type StorageBackend } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
export type OpenPostgres = typeof openPostgresStorage;
export async function count(path: string): Promise<number> {
  const storage: StorageBackend = await openSqliteStorage({ path });
  const page = await storage.listEvents({ limit: 10 });
  const first: Event | undefined = page.items[0];
  return first ? EventSchema.parse(first).body.type.length : 0;
}
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          noEmit: true,
          types: ['node'],
          skipLibCheck: false,
        },
        files: ['use.ts'],
      }),
    );
    const tsc = join(repoRoot, 'node_modules/.bin/tsc');
    const typesRoot = join(repoRoot, 'node_modules/@types');
    const result = execFileSync(tsc, ['-p', '.', '--typeRoots', typesRoot], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(result).toBe('');
  });
});
