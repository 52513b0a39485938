import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { ColumnWeights, SearchHit, SearchOptions, SearchStore } from '../backend.js';
import { planQuery, type QueryPlanOptions, type TermStat } from '../query/plan.js';
import { escapeLike, quoteTerm, tokenize } from '../query/tokenize.js';
import type { SqliteContext } from './context.js';
import { type ImpactTerm, impactsPending, impactTopK } from './impacts.js';
import { namespaceToken, recordFromRow } from './rows.js';
import type { RecordRow } from './tables.js';

/**
 * Document frequencies of index terms, with the index size they were counted at. Shared
 * with the composition, which clears it after a forget (counts may have dropped a lot).
 */
export type TermCounts = Map<string, { df: number; atTotal: number }>;

export interface SqliteSearchSettings {
  weights: ColumnWeights;
  plan: Omit<QueryPlanOptions, 'totalDocs'>;
  maxPostings: number;
  termCounts: TermCounts;
  /**
   * A namespace's unfiltered search whose kept words hold more than this many postings is
   * answered from the impact-ordered table (impacts.ts) when it is complete; below it,
   * FTS5 scoring every hit is as cheap. Infinity: never.
   */
  impactMinPostings: number;
  /** Whether the impact table keeps no rows for `term` (see StopTerms). */
  impactStopped: (term: string) => boolean;
  /** Called when the impact table is incomplete (queued records): tokenise them soon. */
  onImpactsPending: () => void;
}

/**
 * Creates the scratch index that turns prompt words into index terms with the same
 * tokenizer as the records' index (per connection: `temp`).
 */
export function createQueryTermTables(sqlite: Database.Database): void {
  sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms USING fts5(
      word, tokenize='porter unicode61 remove_diacritics 2')`);
  sqlite.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms_vocab USING fts5vocab(temp, query_terms, 'instance')",
  );
}

/**
 * FTS5 search: the prompt reduced to its rarest indexed terms (planQuery, with document
 * frequencies counted cheaply and cached) before it reaches the index, BM25 with column
 * weights, exact namespace equality, and a LIKE scan when FTS5 rejects the query (hostile
 * input is never an error).
 */
export function sqliteSearch(ctx: SqliteContext, settings: SqliteSearchSettings): SearchStore {
  const { db, sqlite, statements } = ctx;
  const { termCounts, maxPostings } = settings;
  let dfStatement: Database.Statement | undefined;
  const wordTerms = new Map<string, readonly string[]>();

  /**
   * The index terms of each word (the tokenizer is FTS5's, through the scratch table), cached:
   * a word's terms never change, and prompts repeat words, so most searches open no
   * transaction on the scratch table at all.
   */
  function termsOf(words: readonly string[]): Array<readonly string[]> {
    const missing = words.filter((word) => !wordTerms.has(word));
    if (missing.length > 0) {
      const insert = statements.prepare('INSERT INTO temp.query_terms (rowid, word) VALUES (?, ?)');
      const load = sqlite.transaction(() => {
        for (const [i, word] of missing.entries()) insert.run(i + 1, word);
        const instances = statements
          .prepare('SELECT term, doc FROM temp.query_terms_vocab')
          .all() as Array<{ term: string; doc: number }>;
        sqlite.exec('DELETE FROM temp.query_terms');
        return instances;
      });
      const found = new Map<string, string[]>(missing.map((word) => [word, []]));
      for (const { term, doc } of load() as Array<{ term: string; doc: number }>) {
        const terms = found.get(missing[doc - 1]!);
        if (terms && !terms.includes(term)) terms.push(term);
      }
      if (wordTerms.size + found.size > MAX_CACHED_WORDS) wordTerms.clear();
      for (const [word, terms] of found) wordTerms.set(word, terms);
    }
    return words.map((word) => wordTerms.get(word) ?? []);
  }

  /**
   * Index terms and document frequencies of prompt words: each term once, for the first
   * word that has it, in the order the scratch table lists them (by term, as SQLite
   * compares text: by code point).
   */
  function termStats(words: readonly string[], totalDocs: number): TermStat[] {
    const pairs: Array<{ term: string; at: number }> = [];
    for (const [at, terms] of termsOf(words).entries())
      for (const term of terms) pairs.push({ term, at });
    pairs.sort((a, b) => byCodePoint(a.term, b.term) || a.at - b.at);
    const stats: TermStat[] = [];
    const seen = new Set<string>();
    for (const { term, at } of pairs) {
      if (seen.has(term)) continue;
      seen.add(term);
      const word = words[at]!;
      stats.push({ word, term, df: documentFrequency(word, term, totalDocs) });
    }
    return stats;
  }

  /**
   * How many records contain `word`, counted only up to the postings budget + 1: a word
   * past the budget can never be searched for, and counting a common word exactly (as
   * fts5vocab does, by reading its whole doclist) costs up to 100 ms in a large index.
   * Prompts repeat words, so counts are cached until the index changes size by 5 %.
   */
  function documentFrequency(word: string, term: string, totalDocs: number): number {
    const cached = termCounts.get(term);
    if (cached && Math.abs(totalDocs - cached.atTotal) <= cached.atTotal * 0.05) return cached.df;
    dfStatement ??= statements
      .prepare('SELECT count(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)')
      .pluck();
    let df = 0;
    try {
      df = Number(dfStatement.get(quoteTerm(word), maxPostings + 1));
    } catch {
      // a word FTS5 cannot parse is simply not searched for
    }
    // A word no record has yet is not cached: the next record may bring it (a teammate's
    // record just pushed, a fresh extraction), and until the index grew by 5 % a cached 0
    // would leave the word out of every search. Counting an absent word is one index probe.
    if (df === 0) return df;
    if (termCounts.size >= 50_000) termCounts.clear();
    termCounts.set(term, { df, atTotal: totalDocs });
    return df;
  }

  /**
   * BM25 over FTS5, best first. Two costs scale with the index rather than with the hits,
   * and both are avoided here without changing a score or the order:
   * - The FTS5 subquery drives the join to the records (CROSS JOIN fixes the order): left
   *   to itself SQLite walks the namespace's index, every record of the project, and probes
   *   the ranked hits for each (at 100k records in one project, 15 ms of 40).
   * - The namespace token is a phrase of the match, and bm25() reads every phrase's whole
   *   doclist once to count its rows (for IDF): for a project holding most of the index
   *   that is a second pass over the whole index. When the namespace holds at least half
   *   the records (`share`), the match leaves it out and the join compares the namespace;
   *   the token's column has weight 0, so every score is the same. Should the ranked rows
   *   not leave `limit` of the namespace, the search runs again with the token.
   */
  async function ftsSearch(
    match: string,
    words: string[],
    query: SearchOptions,
    share: number,
  ): Promise<SearchHit[]> {
    const w = { ...settings.weights, ...query.weights };
    const rank = sql`bm25(memory_fts, ${w.title}, ${w.summary}, ${w.facts}, ${w.concepts}, ${w.files}, ${w.questions}, 0)`;
    // Query terms may only hit content columns; the namespace token only its own column.
    const content = `{title summary facts concepts files questions} : (${match})`;
    const withToken =
      query.namespace === undefined
        ? content
        : `ns_token : ${quoteTerm(namespaceToken(query.namespace))} AND ${content}`;
    const filtered =
      query.observationType !== undefined || query.file !== undefined || query.current === true;
    const run = async (scoped: string, ranked: number) =>
      // Without extra filters, rank inside FTS5 and join only the top hits to their rows.
      filtered
        ? (
            await sql<RecordRow & { score: number }>`
          SELECT r.*, ${rank} AS score FROM memory_fts CROSS JOIN memory_records r ON r.rid = memory_fts.rowid
          WHERE memory_fts MATCH ${scoped} ${filters(query)}
          ORDER BY score, r.record_id DESC LIMIT ${query.limit}`.execute(db)
          ).rows
        : (
            await sql<RecordRow & { score: number }>`
          SELECT r.*, f.score FROM (
            SELECT rowid, ${rank} AS score FROM memory_fts WHERE memory_fts MATCH ${scoped}
            ORDER BY score LIMIT ${ranked}
          ) f CROSS JOIN memory_records r ON r.rid = f.rowid
          WHERE 1 ${filters(query)}
          ORDER BY f.score, r.record_id DESC LIMIT ${query.limit}`.execute(db)
          ).rows;
    const ranked = query.limit * 2 + 10;
    let rows: Array<RecordRow & { score: number }> | undefined;
    if (query.namespace !== undefined && !filtered && share >= 0.5) {
      const wider = Math.ceil(ranked / share);
      rows = await run(content, wider);
      // Fewer than asked for: other projects' hits may have filled the ranked rows.
      if (rows.length < query.limit) rows = undefined;
    }
    rows ??= await run(withToken, ranked);
    return rows.map(({ score, ...row }) => ({
      record: recordFromRow(row),
      score: -score,
      terms: words,
      via: 'fts' as const,
    }));
  }

  async function likeSearch(words: string[], query: SearchOptions): Promise<SearchHit[]> {
    const columns = ['title', 'summary', 'facts', 'concepts', 'files', 'questions'];
    const matched = words.map(
      (word) =>
        sql`(${sql.join(
          columns.map((c) => sql`${sql.ref(`r.${c}`)} LIKE ${`%${escapeLike(word)}%`} ESCAPE '\\'`),
          sql` OR `,
        )})`,
    );
    const score = sql`(${sql.join(matched, sql` + `)})`;
    const { rows } = await sql<RecordRow & { score: number }>`
      SELECT * FROM (SELECT r.*, ${score} AS score FROM memory_records r WHERE 1 ${filters(query)})
      WHERE score > 0 ORDER BY score DESC, created_at DESC LIMIT ${query.limit}`.execute(db);
    return rows.map(({ score: s, ...row }) => ({
      record: recordFromRow(row),
      score: Number(s),
      terms: words,
      via: 'like' as const,
    }));
  }

  /**
   * The plan's words as single index terms, when the impact table can answer: a namespace,
   * no other filter, every word one term (no phrase), enough postings to be worth it, and
   * no record waiting to be tokenised.
   */
  function impactTerms(
    words: readonly string[],
    stats: readonly TermStat[],
    query: SearchOptions,
  ): ImpactTerm[] | undefined {
    if (query.namespace === undefined || words.length > 30) return undefined;
    if (query.observationType !== undefined || query.file !== undefined || query.current === true)
      return undefined;
    const terms: ImpactTerm[] = [];
    let postings = 0;
    for (const word of words) {
      const of = stats.filter((s) => s.word === word);
      if (of.length !== 1 || settings.impactStopped(of[0]!.term)) return undefined;
      terms.push({ term: of[0]!.term, df: of[0]!.df });
      postings += of[0]!.df;
    }
    if (postings <= settings.impactMinPostings) return undefined;
    if (impactsPending(statements)) {
      settings.onImpactsPending();
      return undefined;
    }
    return terms;
  }

  /** The top records from the impact table, fetched, best first (ties: newer record id). */
  function impactSearch(
    terms: readonly ImpactTerm[],
    words: string[],
    query: SearchOptions,
  ): SearchHit[] {
    const hits = impactTopK(
      statements,
      query.namespace!,
      terms,
      { ...settings.weights, ...query.weights },
      query.limit,
    );
    if (hits.length === 0) return [];
    const rows = statements
      .prepare(`SELECT * FROM memory_records WHERE rid IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(hits.map((h) => h.rid))) as RecordRow[];
    const byRid = new Map(rows.map((row) => [row.rid, row]));
    return hits
      .flatMap(({ rid, score }) => {
        const row = byRid.get(rid);
        return row
          ? [{ record: recordFromRow(row), score, terms: words, via: 'fts' as const }]
          : [];
      })
      .sort(
        (a, b) =>
          b.score - a.score ||
          (a.record.record_id < b.record.record_id
            ? 1
            : a.record.record_id > b.record.record_id
              ? -1
              : 0),
      );
  }

  return {
    async searchRecords(query) {
      ctx.ensureOpen();
      const words = tokenize(query.query);
      if (words.length === 0 || query.limit <= 0) return [];
      const counts = statements
        .prepare(
          `SELECT sum(memories) AS n, sum(CASE WHEN namespace = ? THEN memories ELSE 0 END) AS own
           FROM namespace_counts`,
        )
        .get(query.namespace ?? '') as { n: number | null; own: number | null } | undefined;
      const totalDocs = Number(counts?.n ?? 0);
      const share = totalDocs > 0 ? Number(counts?.own ?? 0) / totalDocs : 0;
      const stats = termStats(words, totalDocs);
      const plan = planQuery(stats, { ...settings.plan, totalDocs });
      if (plan.match === '') return [];
      const fast = impactTerms(plan.words, stats, query);
      if (fast) return impactSearch(fast, plan.words, query);
      try {
        return await ftsSearch(plan.match, plan.words, query, share);
      } catch {
        return likeSearch(plan.words, query);
      }
    },
  };
}

/** Words whose index terms are kept (each at most 64 characters: see tokenize). */
const MAX_CACHED_WORDS = 50_000;

/** Text in SQLite's order (its UTF-8 bytes, that is by code point), not UTF-16's. */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Namespace (exact equality), type and file filters, as `AND …` over `memory_records r`. */
function filters(query: SearchOptions) {
  const parts = [];
  if (query.namespace !== undefined) parts.push(sql`AND r.namespace = ${query.namespace}`);
  if (query.observationType !== undefined)
    parts.push(sql`AND r.observation_type = ${query.observationType}`);
  if (query.current === true) parts.push(sql`AND r.superseded_by IS NULL`);
  if (query.file !== undefined) {
    const suffix = `%/${escapeLike(query.file.replace(/^\/+/, ''))}`;
    parts.push(
      sql`AND EXISTS (SELECT 1 FROM json_each(r.files) WHERE value = ${query.file} OR value LIKE ${suffix} ESCAPE '\\')`,
    );
  }
  return sql.join(parts, sql` `);
}
