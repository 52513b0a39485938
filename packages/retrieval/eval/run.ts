// pnpm eval: recall@1, recall@5 and MRR of the plain original algorithm (OR of quoted
// terms, BM25) beside ours, on the labelled set in this folder; then the same for the
// context retrieve() injects, where records restating each other count as one; then, for
// every set (this one and the paraphrase set), R@1, R@5 and MRR per tag of every ranker in
// rankers.ts, side by side. Prints; asserts nothing. Flags: `--tables` prints only the
// per-tag tables; `--misses` lists the prompts each ranker misses; `--overlap` lists the
// prompts sharing more than one content word with their answer; `--set <name>` prints only
// that set's table (`original` or `paraphrase`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHARS_PER_TOKEN, createRetriever, type RankWeights } from '@kiro-learn/retrieval';
import type { MemoryRecord } from '@kiro-learn/schema';
import { type ColumnWeights, DEFAULT_COLUMN_WEIGHTS, openSqliteStorage } from '@kiro-learn/storage';
import Database from 'better-sqlite3';
import { mean, type Scores, score } from './metrics.ts';
import { type EvalPrompt, PROMPTS as LABELLED } from './prompts.ts';
import { RANKERS } from './rankers.ts';
import { RECORDS } from './records.ts';
import { NOW, namespaceOf, SETS, toMemoryRecord as toRecord } from './sets.ts';
import { printMisses, printOverlap, printTable, runSet } from './table.ts';

/** A record's duplicate group: the record it restates, or itself. */
const groupOf = new Map(RECORDS.map((r) => [r.key, r.restates ?? r.key]));
/** A record restating a relevant record answers the prompt as well. */
const PROMPTS: readonly EvalPrompt[] = LABELLED.map((p) => {
  const groups = new Set(p.relevant.map((key) => groupOf.get(key)));
  return {
    ...p,
    relevant: RECORDS.filter((r) => groups.has(groupOf.get(r.key))).map((r) => r.key),
  };
});

const TOKENIZER = 'porter unicode61 remove_diacritics 2';

type Ranker = (prompt: EvalPrompt) => Promise<string[]>;

/** The original: every whitespace-separated word quoted, OR-ed (first 32), plain bm25(). */
function plainRanker(records: ReadonlyArray<[string, MemoryRecord]>): Ranker {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(ns UNINDEXED, key UNINDEXED, title, summary,
    facts, concepts, files, tokenize='${TOKENIZER}')`);
  const insert = db.prepare('INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const [key, r] of records) {
    insert.run(
      r.namespace,
      key,
      r.title,
      r.summary,
      r.facts.join('\n'),
      r.concepts.join('\n'),
      r.files_touched.join('\n'),
    );
  }
  const search = db.prepare(
    'SELECT key FROM docs WHERE docs MATCH ? AND ns = ? ORDER BY bm25(docs) LIMIT 10',
  );
  return async (p) => {
    const terms = p.prompt
      .split(/\s+/)
      .filter((t) => t !== '')
      .slice(0, 32);
    const match = terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
    try {
      return (search.all(match, namespaceOf(p.project)) as Array<{ key: string }>).map(
        (row) => row.key,
      );
    } catch {
      return [];
    }
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-eval-'));
  const storage = await openSqliteStorage({ path: join(dir, 'eval.db') });
  try {
    const records = RECORDS.map((r) => [r.key, toRecord(r)] as [string, MemoryRecord]);
    const keyOf = new Map(records.map(([key, r]) => [r.record_id, key]));
    for (const [, r] of records) await storage.putRecord(r);

    const ours = (
      rankWeights?: Partial<RankWeights>,
      columnWeights?: Partial<ColumnWeights>,
    ): Ranker => {
      const retriever = createRetriever({
        storage,
        now: () => NOW,
        log: false,
        ...(rankWeights ? { rankWeights } : {}),
        ...(columnWeights ? { columnWeights } : {}),
      });
      return async (p) => {
        const hits = await retriever.search({
          namespace: namespaceOf(p.project),
          query: p.prompt,
          limit: 10,
        });
        return hits.map((hit) => keyOf.get(hit.record.record_id) ?? '?');
      };
    };
    const storageOnly: Ranker = async (p) => {
      const hits = await storage.searchRecords({
        namespace: namespaceOf(p.project),
        query: p.prompt,
        limit: 10,
      });
      return hits.map((hit) => keyOf.get(hit.record.record_id) ?? '?');
    };
    const rankers: Array<[string, Ranker]> = [
      ['plain (original: OR of quoted terms, bm25)', plainRanker(records)],
      ['storage search (weights, stop words, IDF)', storageOnly],
      ['ours without file boost', ours({ file: 0 })],
      ['ours without concept boost', ours({ concept: 0 })],
      ['ours without recency', ours({ recency: 0 })],
      ["ours with storage's column weights", ours(undefined, DEFAULT_COLUMN_WEIGHTS)],
      ['ours', ours()],
    ];

    const results = new Map<
      string,
      Array<{ prompt: EvalPrompt; ranked: string[]; scores: Scores }>
    >();
    for (const [name, rank] of rankers) {
      const rows = [];
      for (const prompt of PROMPTS) {
        const ranked = await rank(prompt);
        rows.push({ prompt, ranked, scores: score(ranked, prompt.relevant) });
      }
      results.set(name, rows);
    }

    const projects = new Set(RECORDS.map((r) => r.project)).size;
    console.log(
      `kiro-learn retrieval eval: ${RECORDS.length} records in ${projects} projects, ${PROMPTS.length} prompts\n`,
    );
    const pad = (text: string, width: number) => text.padEnd(width);
    const num = (n: number) => n.toFixed(3).padStart(9);
    console.log(
      `${pad('algorithm', 46)}${'recall@1'.padStart(9)}${'recall@5'.padStart(9)}${'MRR'.padStart(9)}`,
    );
    for (const [name, rows] of results) {
      const m = mean(rows.map((row) => row.scores));
      console.log(`${pad(name, 46)}${num(m.r1)}${num(m.r5)}${num(m.mrr)}`);
    }

    const plain = results.get(rankers[0]![0])!;
    const best = results.get('ours')!;
    console.log(
      `\nMRR by prompt kind${' '.repeat(28)}${'plain'.padStart(9)}${'ours'.padStart(9)}${'n'.padStart(5)}`,
    );
    for (const kind of [...new Set(PROMPTS.map((p) => p.kind))]) {
      const pick = (rows: typeof best) =>
        mean(rows.filter((row) => row.prompt.kind === kind).map((row) => row.scores));
      const n = PROMPTS.filter((p) => p.kind === kind).length;
      console.log(
        `${pad(`  ${kind}`, 46)}${num(pick(plain).mrr)}${num(pick(best).mrr)}${String(n).padStart(5)}`,
      );
    }
    // What the agent actually gets: retrieve() with its budgets, noise floor and repeat
    // rule. Records restating each other are one piece of knowledge here: recall@k counts
    // relevant groups among the first k blocks, precision counts each relevant group once,
    // a repeat is a block whose group came earlier, and a record is lost when the rule left
    // it out and no record of its group is in the context (against the row without the rule).
    const columns = ['records', 'tokens', 'recall', 'r@1', 'r@5', 'MRR', 'precision', 'repeats'];
    console.log(
      `\ncontext injected by retrieve(), per prompt${' '.repeat(4)}${[...columns, 'lost'].map((h) => h.padStart(10)).join('')}`,
    );
    let withoutRule: Array<Array<string | undefined>> = [];
    for (const [name, minRelativeScore, maxOverlap] of [
      ['without noise floor or repeat rule', 0, 1],
      ['noise floor 0.3, no repeat rule', undefined, 1],
      ['repeat rule 0.6', undefined, 0.6],
      ['repeat rule 0.7', undefined, 0.7],
      ['ours (noise floor, repeat rule 0.8)', undefined, undefined],
      ['repeat rule 0.9', undefined, 0.9],
    ] as const) {
      const retriever = createRetriever({
        storage,
        now: () => NOW,
        log: false,
        ...(minRelativeScore === undefined ? {} : { minRelativeScore }),
        ...(maxOverlap === undefined ? {} : { maxOverlap }),
      });
      const sums = { records: 0, tokens: 0, recall: 0, precision: 0, repeats: 0, lost: 0 };
      const rows: Scores[] = [];
      const contexts: Array<Array<string | undefined>> = [];
      for (const [i, p] of PROMPTS.entries()) {
        const result = await retriever.retrieve({
          namespace: namespaceOf(p.project),
          prompt: p.prompt,
        });
        const keys = result.records.map((id) => keyOf.get(id));
        contexts.push(keys);
        const groups = keys.map((key) => groupOf.get(key ?? '') ?? '?');
        const distinct = [...new Set(groups)];
        const wanted = [...new Set(p.relevant.map((key) => groupOf.get(key)!))];
        const found = distinct.filter((g) => wanted.includes(g)).length;
        rows.push(score(groups, wanted));
        sums.records += keys.length;
        sums.tokens += result.context.length / CHARS_PER_TOKEN;
        sums.recall += found / wanted.length;
        sums.precision += keys.length === 0 ? 0 : found / keys.length;
        sums.repeats += keys.length - distinct.length;
        if (maxOverlap !== 1) {
          sums.lost += (withoutRule[i] ?? []).filter(
            (key) => !groups.includes(groupOf.get(key ?? '') ?? '?'),
          ).length;
        }
        if (process.argv.includes('--repeats') && keys.length > distinct.length)
          console.log(`    ${name}: ${p.prompt}\n      ${keys.join(', ')}`);
      }
      if (maxOverlap === 1) withoutRule = contexts;
      const n = PROMPTS.length;
      const m = mean(rows);
      const cells = [
        (sums.records / n).toFixed(2),
        (sums.tokens / n).toFixed(0),
        ...[sums.recall / n, m.r1, m.r5, m.mrr, sums.precision / n].map((x) => x.toFixed(3)),
        (sums.repeats / n).toFixed(2),
        maxOverlap === 1 ? '-' : String(sums.lost),
      ];
      console.log(`${pad(`  ${name}`, 46)}${cells.map((c) => c.padStart(10)).join('')}`);
    }

    const worse = best.filter((row, i) => row.scores.mrr < plain[i]!.scores.mrr).length;
    console.log(`\nprompts where ours ranks worse than plain: ${worse} of ${PROMPTS.length}`);

    if (process.argv.includes('--misses')) {
      console.log('\nprompts ours does not rank first, or ranks below plain:');
      for (const [i, row] of best.entries()) {
        if (
          row.scores.r1 === 1 &&
          row.scores.mrr >= plain[i]!.scores.mrr &&
          row.scores.r5 >= plain[i]!.scores.r5
        )
          continue;
        console.log(
          `  [${row.prompt.kind}] ${row.prompt.prompt} (MRR ${row.scores.mrr.toFixed(2)} vs plain ${plain[i]!.scores.mrr.toFixed(2)}, recall@5 ${row.scores.r5.toFixed(2)} vs ${plain[i]!.scores.r5.toFixed(2)})\n    want ${row.prompt.relevant.join(', ')}; got ${row.ranked.slice(0, 5).join(', ') || '(nothing)'}; plain ${plain[i]!.ranked.slice(0, 5).join(', ')}`,
        );
      }
    }
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every set's per-tag table, each ranker of rankers.ts a column group. */
async function tables(): Promise<void> {
  const only = process.argv[process.argv.indexOf('--set') + 1];
  const sets = process.argv.includes('--set') ? SETS.filter((s) => s.name === only) : SETS;
  if (sets.length === 0) {
    console.error(
      `--set: no set named ${only}; the sets are ${SETS.map((s) => s.name).join(', ')}`,
    );
    process.exit(2);
  }
  for (const set of sets) {
    const results = await runSet(set, RANKERS);
    printTable(set, results);
    if (process.argv.includes('--misses')) printMisses(set, results);
    if (process.argv.includes('--overlap')) printOverlap(set);
  }
}

if (!process.argv.includes('--tables') && !process.argv.includes('--set')) await main();
await tables();
