// Per-tag tables: for each labelled set, R@1, R@5 and MRR of every ranker side by side,
// each row beside the share of its prompts that share at most one content word with the
// records that answer them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryRecord } from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { mean, type Scores, score } from './metrics.ts';
import type { RankerFactory } from './rankers.ts';
import {
  type EvalSet,
  type LabelledPrompt,
  NOW,
  namespaceOf,
  sharedWithAnswers,
  toMemoryRecord,
} from './sets.ts';

export interface PromptResult {
  prompt: LabelledPrompt;
  /** Keys, best first. */
  ranked: string[];
  scores: Scores;
}

/** Stores the set in a fresh SQLite file, sets every ranker up on it and asks every prompt. */
export async function runSet(
  set: EvalSet,
  rankers: readonly RankerFactory[],
): Promise<Map<string, PromptResult[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-eval-'));
  const storage = await openSqliteStorage({ path: join(dir, 'eval.db') });
  try {
    const stored = set.records.map((r) => [r.key, toMemoryRecord(r)] as const);
    for (const [, r] of stored) await storage.putRecord(r);
    await linkSupersessions(storage, set, new Map(stored));
    const keyOf = new Map(stored.map(([key, r]) => [r.record_id, key]));
    const records = (await storage.getRecords(stored.map(([, r]) => r.record_id))).filter(
      (r) => r !== undefined,
    );
    const results = new Map<string, PromptResult[]>();
    for (const factory of rankers) {
      const rank = await factory.setup({ storage, records, now: NOW });
      const rows: PromptResult[] = [];
      for (const prompt of set.prompts) {
        const ids = await rank({ namespace: namespaceOf(prompt.project), prompt: prompt.prompt });
        const ranked = ids.map((id) => keyOf.get(id) ?? '?');
        rows.push({ prompt, ranked, scores: score(ranked, prompt.relevant) });
      }
      results.set(factory.name, rows);
    }
    return results;
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Marks each record a newer one `supersedes` as superseded by it, as the collector does. */
export async function linkSupersessions(
  storage: Pick<SqliteStorage, 'supersedeRecord'>,
  set: EvalSet,
  byKey: ReadonlyMap<string, MemoryRecord>,
): Promise<void> {
  for (const r of set.records) {
    if (r.supersedes === undefined) continue;
    const newer = byKey.get(r.key)!;
    await storage.supersedeRecord({
      recordId: byKey.get(r.supersedes)!.record_id,
      supersededBy: newer.record_id,
      at: newer.created_at,
    });
  }
}

/** The set's tags in order of first use, then `all`. */
function tagsOf(set: EvalSet): string[] {
  return [...new Set(set.prompts.flatMap((p) => p.tags))];
}

/** Prints one set's table: a row per tag and one for all prompts, a column group per ranker. */
export function printTable(set: EvalSet, results: Map<string, PromptResult[]>): void {
  const projects = new Set(set.records.map((r) => r.project)).size;
  console.log(
    `\n${set.name} set: ${set.records.length} records in ${projects} projects, ${set.prompts.length} prompts` +
      '\n(≤1 word: share of prompts sharing at most one content word with every record that answers them)\n',
  );
  const names = [...results.keys()];
  const group = (text: string) => text.padStart(21);
  console.log(
    `${''.padEnd(14)}${'n'.padStart(5)}${'≤1 word'.padStart(9)}${names.map(group).join('')}`,
  );
  console.log(
    `${'tag'.padEnd(14)}${''.padStart(14)}${names.map(() => ['R@1', 'R@5', 'MRR'].map((h) => h.padStart(7)).join('')).join('')}`,
  );
  const low = set.prompts.map((p) => sharedWithAnswers(set, p).length <= 1);
  const row = (label: string, include: (p: LabelledPrompt) => boolean) => {
    const picked = set.prompts.map((p, i) => [include(p), i] as const).filter(([yes]) => yes);
    const share = picked.filter(([, i]) => low[i]).length / picked.length;
    const cells = names.map((name) => {
      const m = mean(picked.map(([, i]) => results.get(name)![i]!.scores));
      return [m.r1, m.r5, m.mrr].map((x) => x.toFixed(3).padStart(7)).join('');
    });
    console.log(
      `${label.padEnd(14)}${String(picked.length).padStart(5)}${share.toFixed(2).padStart(9)}${cells.join('')}`,
    );
  };
  for (const tag of tagsOf(set)) row(tag, (p) => p.tags.includes(tag));
  row('all', () => true);
}

/** Lists the prompts a ranker leaves out of its first five, with what it ranked instead. */
export function printMisses(set: EvalSet, results: Map<string, PromptResult[]>): void {
  for (const [name, rows] of results) {
    const missed = rows.filter((row) => row.scores.r5 < 1);
    console.log(`\n${set.name} set, ${name}: ${missed.length} prompts not fully in the top 5`);
    for (const row of missed) {
      console.log(
        `  [${row.prompt.tags.join(',')}] ${row.prompt.prompt}\n    want ${row.prompt.relevant.join(', ')}; got ${row.ranked.slice(0, 5).join(', ') || '(nothing)'}`,
      );
    }
  }
}

/** Lists the prompts sharing more than one content word with an answer, and the words. */
export function printOverlap(set: EvalSet): void {
  const over = set.prompts
    .map((p) => [p, sharedWithAnswers(set, p)] as const)
    .filter(([, shared]) => shared.length > 1);
  console.log(`\n${set.name} set: ${over.length} prompts share more than one content word`);
  for (const [p, shared] of over) {
    console.log(`  [${p.tags.join(',')}] ${p.prompt}\n    shares ${shared.join(', ')}`);
  }
}
