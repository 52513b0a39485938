// pnpm eval: recall@1, recall@5 and MRR of the plain original algorithm (OR of quoted
// terms, BM25) beside ours, on the labelled set in this folder. Prints; asserts nothing.
// `node eval/run.ts --misses` also lists the prompts ours does not rank first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetriever, type RankWeights } from '@kiro-learn/retrieval';
import { buildNamespace, type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { type ColumnWeights, DEFAULT_COLUMN_WEIGHTS, openSqliteStorage } from '@kiro-learn/storage';
import Database from 'better-sqlite3';
import { type EvalPrompt, PROMPTS } from './prompts.ts';
import { RECORDS } from './records.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const DAY = 86_400_000;
const TOKENIZER = 'porter unicode61 remove_diacritics 2';

type Ranker = (prompt: EvalPrompt) => Promise<string[]>;

const namespaceOf = (project: string) => buildNamespace('eval', project);

function toRecord(r: (typeof RECORDS)[number]): MemoryRecord {
  const time = NOW - r.daysAgo * DAY;
  return {
    record_id: newRecordId(time),
    namespace: namespaceOf(r.project),
    strategy: 'eval',
    title: r.title,
    summary: r.summary,
    facts: r.facts,
    concepts: r.concepts,
    files_touched: r.files,
    observation_type: r.type,
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
  };
}

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

interface Scores {
  r1: number;
  r5: number;
  mrr: number;
}

/** recall@k counts relevant records in the top k out of min(k, relevant); MRR uses the first relevant. */
function score(ranked: readonly string[], relevant: readonly string[]): Scores {
  const recall = (k: number) =>
    ranked.slice(0, k).filter((key) => relevant.includes(key)).length /
    Math.min(k, relevant.length);
  const first = ranked.findIndex((key) => relevant.includes(key));
  return { r1: recall(1), r5: recall(5), mrr: first < 0 ? 0 : 1 / (first + 1) };
}

function mean(rows: readonly Scores[]): Scores {
  const sum = (f: (s: Scores) => number) => rows.reduce((a, s) => a + f(s), 0) / rows.length;
  return { r1: sum((s) => s.r1), r5: sum((s) => s.r5), mrr: sum((s) => s.mrr) };
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
    // What the agent actually gets: retrieve() with its budgets and noise floor.
    console.log(
      `\ncontext injected by retrieve()${' '.repeat(16)}${'records'.padStart(9)}${'recall'.padStart(9)}${'precision'.padStart(10)}`,
    );
    for (const [name, minRelativeScore] of [
      ['without a noise floor', 0],
      ['ours (noise floor 0.3 of the best score)', undefined],
    ] as const) {
      const retriever = createRetriever({
        storage,
        now: () => NOW,
        log: false,
        ...(minRelativeScore === undefined ? {} : { minRelativeScore }),
      });
      let injected = 0;
      let relevantInjected = 0;
      let recall = 0;
      for (const p of PROMPTS) {
        const result = await retriever.retrieve({
          namespace: namespaceOf(p.project),
          prompt: p.prompt,
        });
        const keys = result.records.map((id) => keyOf.get(id));
        const hits = keys.filter((key) => key !== undefined && p.relevant.includes(key)).length;
        injected += keys.length;
        relevantInjected += hits;
        recall += hits / p.relevant.length;
      }
      console.log(
        `${pad(`  ${name}`, 46)}${(injected / PROMPTS.length).toFixed(1).padStart(9)}${num(recall / PROMPTS.length)}${(relevantInjected / injected).toFixed(3).padStart(10)}`,
      );
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

await main();
