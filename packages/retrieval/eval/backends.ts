// pnpm --filter @kiro-learn/retrieval eval:backends: the retrieval eval on both storage
// backends. Each labelled set is stored in a fresh SQLite file and in a fresh PostgreSQL
// schema (KIRO_LEARN_TEST_POSTGRES_URL, else a throwaway embedded PostgreSQL); then
// storage's own search and the retriever's ranking answer every prompt on each, and
// R@1, R@5 and MRR are printed side by side with PostgreSQL's difference. Asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetriever } from '@kiro-learn/retrieval';
import type { MemoryRecord } from '@kiro-learn/schema';
import { openSqliteStorage, type StorageBackend } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { mean, type Scores, score } from './metrics.ts';
import { type EvalSet, NOW, namespaceOf, SETS, toMemoryRecord } from './sets.ts';

type Rank = (storage: StorageBackend, namespace: string, prompt: string) => Promise<string[]>;

const RANKINGS: ReadonlyArray<[name: string, rank: Rank]> = [
  [
    'storage search',
    async (storage, namespace, query) =>
      (await storage.searchRecords({ namespace, query, limit: 10 })).map((h) => h.record.record_id),
  ],
  [
    'retriever',
    async (storage, namespace, query) =>
      (
        await createRetriever({ storage, now: () => NOW, log: false }).search({
          namespace,
          query,
          limit: 10,
        })
      ).map((h) => h.record.record_id),
  ],
];

/** Mean scores of each ranking over the set, on one backend holding the set. */
async function evaluate(set: EvalSet, storage: StorageBackend): Promise<Map<string, Scores>> {
  const stored: Array<[string, MemoryRecord]> = set.records.map((r) => [r.key, toMemoryRecord(r)]);
  for (const [, record] of stored) await storage.putRecord(record);
  const keyOf = new Map(stored.map(([key, r]) => [r.record_id, key]));
  const result = new Map<string, Scores>();
  for (const [name, rank] of RANKINGS) {
    const rows: Scores[] = [];
    for (const p of set.prompts) {
      const ids = await rank(storage, namespaceOf(p.project), p.prompt);
      rows.push(
        score(
          ids.map((id) => keyOf.get(id) ?? '?'),
          p.relevant,
        ),
      );
    }
    result.set(name, mean(rows));
  }
  return result;
}

const pg = await startTestPostgres();
const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-eval-backends-'));
try {
  console.log(`retrieval eval on both backends (PostgreSQL from ${pg.source})\n`);
  console.log(
    `${'set'.padEnd(12)}${'ranking'.padEnd(16)}${'backend'.padEnd(12)}    R@1    R@5    MRR`,
  );
  for (const set of SETS) {
    const sqlite = await openSqliteStorage({ path: join(dir, `${set.name}.db`) });
    const postgres = await openPostgresStorage({ url: pg.url, schema: freshSchema('eval') });
    try {
      const [a, b] = [await evaluate(set, sqlite), await evaluate(set, postgres)];
      for (const [name] of RANKINGS) {
        const s = a.get(name)!;
        const p = b.get(name)!;
        const row = (backend: string, x: Scores) =>
          `${set.name.padEnd(12)}${name.padEnd(16)}${backend.padEnd(12)}${x.r1.toFixed(3).padStart(7)}${x.r5.toFixed(3).padStart(7)}${x.mrr.toFixed(3).padStart(7)}`;
        console.log(row('SQLite', s));
        console.log(row('PostgreSQL', p));
        const d = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`.padStart(7);
        const worst = Math.max(
          Math.abs(p.r1 - s.r1),
          Math.abs(p.r5 - s.r5),
          Math.abs(p.mrr - s.mrr),
        );
        console.log(
          `${''.padEnd(28)}${'difference'.padEnd(12)}${d(p.r1 - s.r1)}${d(p.r5 - s.r5)}${d(p.mrr - s.mrr)}   ${worst <= 0.02 ? 'within 0.02' : 'OVER 0.02'}`,
        );
      }
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await pg.stop();
}
