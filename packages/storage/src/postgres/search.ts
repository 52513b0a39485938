import { createHash } from 'node:crypto';
import type { MemoryRecord } from '@kiro-learn/schema';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { ColumnWeights, SearchHit, SearchOptions, SearchStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { planQuery, type QueryPlanOptions, type TermStat } from '../query/plan.js';
import { escapeLike, tokenize } from '../query/tokenize.js';
import { hasNul, type PgContext, translateError } from './context.js';
import {
  type ImpactStart,
  impactCandidates,
  impactStart,
  postingCounts,
  type RunStatement,
} from './impacts.js';
import { pgRecordFromRow, recordColumns } from './rows.js';
import type { PgRecordRow, PgTables } from './tables.js';
import type { CommonLexemes, PgTermStats } from './term-stats.js';

/** The text search configuration: English stemming and stop words. */
const CONFIG = 'english';

/**
 * Field text as the index sees it: every run of characters other than letters, marks and
 * digits becomes a space, the way the prompt tokenizer (and SQLite's unicode61) splits,
 * so `src/webhooks/stripe.ts` is indexed as `src webhooks stripe ts` and each prompt word
 * meets the same term. PostgreSQL's own parser would keep paths and e-mail addresses whole.
 */
export function searchText(parts: string | readonly string[]): string {
  const text = typeof parts === 'string' ? parts : parts.join(' ');
  return text.replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ');
}

/**
 * One lexeme per namespace that no prompt can produce (it holds a `/`, which the
 * tokenizer splits on): searching `namespace-lexeme & (terms)` lets the GIN index
 * intersect with the namespace first. The namespace column is still compared exactly.
 */
export function namespaceLexeme(namespace: string): string {
  return `ns/${createHash('sha256').update(namespace).digest('hex').slice(0, 24)}`;
}

/**
 * The record's search vector. Weight labels: title A, concepts and files B, facts C,
 * summary D (ranked with the backend's column weights, see rankWeights).
 */
export function searchVector(record: MemoryRecord): RawBuilder<unknown> {
  const field = (text: string, label: 'A' | 'B' | 'C' | 'D') =>
    sql`setweight(to_tsvector(${CONFIG}::regconfig, ${text}), ${label}::"char")`;
  return sql`(${field(searchText(record.title), 'A')}
    || ${field(searchText([...record.concepts, ...record.files_touched]), 'B')}
    || ${field(searchText(record.facts), 'C')}
    || ${field(searchText(record.summary), 'D')}
    || array_to_tsvector(ARRAY[${namespaceLexeme(record.namespace)}]::text[]))`;
}

/**
 * The vector of the questions a record answers: a field of its own (not a label of
 * `search`, whose four labels are taken), ranked with the `questions` column weight.
 */
export function questionsVector(record: MemoryRecord): RawBuilder<unknown> {
  return sql`to_tsvector(${CONFIG}::regconfig, ${searchText(record.questions ?? [])})`;
}

/**
 * ts_rank weights `{D, C, B, A}` from column weights (scaled so the largest is 1;
 * concepts and files share label B and take the larger of their two weights).
 */
export function rankWeights(w: ColumnWeights): number[] {
  const byLabel = [w.summary, w.facts, Math.max(w.concepts, w.files), w.title].map((x) =>
    Math.max(0, x),
  );
  const top = Math.max(...byLabel, 1e-9);
  return byLabel.map((x) => x / top);
}

/** The `questions` weight on the scale of rankWeights (the largest field weight is 1). */
export function questionsWeight(w: ColumnWeights): number {
  const top = Math.max(w.summary, w.facts, w.concepts, w.files, w.title, 1e-9);
  return Math.max(0, w.questions) / top;
}

/** A tsquery literal of lexemes as PostgreSQL produced them (never parsed as operators). */
const quoteLexeme = (lexeme: string) =>
  `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

export interface PgSearchSettings {
  weights: ColumnWeights;
  plan: Omit<QueryPlanOptions, 'totalDocs'>;
  maxPostings: number;
  /** Cheap document frequencies of common words (see pgTermStats). */
  termStats: PgTermStats;
  /**
   * Connections of searches' own (openPostgresStorage's search pool): every one has
   * `enable_seqscan` off (see searchDb there), and no write ever holds one, so a prompt's
   * search never queues behind the inserts of a busy server.
   */
  searchDb: Kysely<PgTables>;
  /** The pool behind `searchDb`, for prepared statements (named: pg keeps them per connection). */
  searchPool?: {
    query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  };
  /**
   * From this many records on, the record count a search plans with may be up to
   * TOTAL_TTL_MS old (the term statistics take over at the same size: one record more or
   * less moves nothing there). Below it every search reads the count.
   */
  cachedTotalFrom: number;
  /**
   * Rank through the impact-ordered postings (impacts.ts; default true). False ranks every
   * matching record, as before migration 0014: the same answers, kept for comparison.
   */
  impacts?: boolean;
  /**
   * Whether every record has its postings (impact-backfill.ts): until then a search ranks
   * every matching record, as with `impacts` false.
   */
  impactsReady?: () => boolean | Promise<boolean>;
}

/** How long the record count is reused by searches of a large index (cachedTotalFrom). */
const TOTAL_TTL_MS = 2000;
/** Common lexemes in more records than this are never counted (impactStart's `known`). */
const FREQUENT = 1000;
/** Words whose lexemes are remembered (a word's lexemes never change for a configuration). */
const MAX_CACHED_WORDS = 50_000;

/**
 * Full-text search with the SQLite backend's contract: the prompt reduced to its rarest
 * indexed terms (planQuery) before it reaches the index, weighted fields, hostile text
 * never an error (only tokenizer words, turned into lexemes by PostgreSQL itself, reach a
 * tsquery), exact namespace equality.
 *
 * Ranking: BM25's shape with PostgreSQL's parts: for each kept term, its IDF (from the
 * document frequencies the planner counted) times ts_rank of that term alone (weighted by
 * field, saturating in term frequency, normalised by document length), summed. A project's
 * search chooses the records to rank from the impact-ordered postings (impacts.ts).
 *
 * Over 400 lines on purpose: one search's steps share the caches kept here (lexemes,
 * document frequencies, the record count) and the choice between the impact path and the
 * full ranking; the impact path's own work (its statements, bounds, top-k) is impacts.ts.
 */
export function pgSearch(ctx: PgContext, settings: PgSearchSettings): SearchStore {
  const { db } = ctx;
  const dfCache = new Map<string, { df: number; atTotal: number }>();

  // Statements that full-text match run on the search pool, whose connections have
  // `enable_seqscan` off: with a few thousand records the planner guesses a sequential scan
  // is cheaper, and matching every record's vector costs 10–20 ms per term where the index
  // answers a rare term in well under one. A common term costs about what the scan would
  // (a heap row per match, capped at the postings budget); in a large index its count
  // comes from ANALYZE's statistics instead. (This was a transaction with `SET LOCAL` on
  // the shared pool: three round trips per statement, each a wait for both processes on a
  // busy machine, holding a connection the inserts needed.)
  const search = settings.searchDb;
  let pool = settings.searchPool;

  /**
   * A statement of a fixed text as a prepared statement of the search pool: parsed and
   * planned once per connection (planning took ~0.8 ms of each search statement). Behind
   * a pooler that hands each transaction another server connection (PgBouncer's transaction
   * mode before 1.21), a prepared statement is missing on the next one: then this backend
   * stops preparing and runs the statement again unprepared.
   */
  const run: RunStatement = async (name, query) => {
    if (!pool) return (await query.execute(search)).rows;
    const compiled = query.compile(search);
    try {
      const { rows } = await pool.query({
        name,
        text: compiled.sql,
        values: [...compiled.parameters],
      });
      return rows as never[];
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== '26000' && code !== '42P05') throw error;
      pool = undefined;
      return (await query.execute(search)).rows;
    }
  };
  const lexemeCache = new Map<string, string[]>();
  let total: { n: number; at: number } | undefined;
  let counting: Promise<number> | undefined;
  const frequent = new WeakMap<CommonLexemes, string[]>();

  /** The number of records (summed from the trigger-kept counters). */
  async function countRecords(): Promise<number> {
    const { rows } = await sql<{ n: string | null }>`
      SELECT sum(memories) AS n FROM namespace_counts`.execute(search);
    const n = Number(rows[0]?.n ?? 0);
    total = { n, at: Date.now() };
    return n;
  }

  /**
   * The record count to plan with: read fresh below `cachedTotalFrom` records; above, the
   * last count while it is younger than TOTAL_TTL_MS (concurrent searches share one read).
   */
  function totalDocs(): Promise<number> | number {
    if (total && total.n >= settings.cachedTotalFrom && Date.now() - total.at < TOTAL_TTL_MS) {
      return total.n;
    }
    counting ??= countRecords().finally(() => {
      counting = undefined;
    });
    return counting;
  }

  /**
   * Lexemes of each word (an empty list for PostgreSQL's own stop words), and the number of
   * records, in one round trip; none when every word's lexemes are remembered and the count
   * may be reused.
   */
  async function lexemesOf(
    words: readonly string[],
  ): Promise<{ lexemes: string[][]; totalDocs: number }> {
    const unknown = [...new Set(words.filter((word) => !lexemeCache.has(word)))];
    if (unknown.length === 0) {
      const n = await totalDocs();
      return { lexemes: words.map((word) => lexemeCache.get(word) ?? []), totalDocs: n };
    }
    const { rows } = await sql<{ i: string; lexemes: string[]; n: string | null }>`
      SELECT w.i, tsvector_to_array(to_tsvector(${CONFIG}::regconfig, w.word)) AS lexemes,
        (SELECT sum(memories) FROM namespace_counts) AS n
      FROM unnest(${unknown}::text[]) WITH ORDINALITY AS w(word, i) ORDER BY w.i`.execute(search);
    if (lexemeCache.size + unknown.length > MAX_CACHED_WORDS) lexemeCache.clear();
    for (const row of rows) {
      const word = unknown[Number(row.i) - 1];
      if (word !== undefined) lexemeCache.set(word, row.lexemes);
    }
    const n = Number(rows[0]?.n ?? 0);
    total = { n, at: Date.now() };
    return { lexemes: words.map((word) => lexemeCache.get(word) ?? []), totalDocs: n };
  }

  /**
   * How many records contain each term. A common lexeme's count is its share in ANALYZE's
   * statistics times the record count (never counted through the index: that would read
   * most of the table). Others are counted only up to the postings budget + 1 (a term
   * past it is never searched for), cached until the index changes size by 5 %.
   */
  async function documentFrequencies(
    terms: ReadonlyMap<string, string>,
    totalDocs: number,
    common: CommonLexemes | undefined,
    impacts: boolean,
    counted?: ReadonlyMap<string, number>,
  ): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    const missing: string[] = [];
    for (const term of terms.keys()) {
      const share = common?.shares.get(term);
      if (share !== undefined) {
        result.set(term, Math.max(1, Math.round(share * totalDocs)));
        continue;
      }
      const cached = dfCache.get(term);
      const count = counted?.get(term);
      if (cached && Math.abs(totalDocs - cached.atTotal) <= cached.atTotal * 0.05) {
        result.set(term, cached.df);
      } else if (count !== undefined) remember(term, count);
      else missing.push(term);
    }
    // A term of one lexeme is counted over its postings; one a word turned into several
    // lexemes (all of them in a record) only through the GIN index.
    const single = impacts ? missing.filter((term) => !term.includes(' ')) : [];
    if (single.length > 0) {
      const counts = await postingCounts(run, single, settings.maxPostings + 1);
      for (const [i, term] of single.entries()) remember(term, counts[i] ?? 0);
    }
    const several = missing.filter((term) => !single.includes(term));
    if (several.length > 0) {
      const queries = several.map((term) => terms.get(term) ?? '');
      const { rows } = await sql<{ i: string; df: string }>`
        SELECT t.i, (SELECT count(*) FROM (
          SELECT 1 FROM memory_records
          WHERE search @@ t.q::tsquery OR questions_search @@ t.q::tsquery
          LIMIT ${settings.maxPostings + 1}
        ) hits) AS df
        FROM unnest(${queries}::text[]) WITH ORDINALITY AS t(q, i)`.execute(search);
      for (const row of rows) {
        const term = several[Number(row.i) - 1];
        if (term !== undefined) remember(term, Number(row.df));
      }
    }
    return result;

    function remember(term: string, df: number) {
      if (dfCache.size >= 50_000) dfCache.clear();
      result.set(term, df);
      // A term no record has yet is not cached: the next record may bring it (see the
      // SQLite backend's documentFrequency).
      if (df > 0) dfCache.set(term, { df, atTotal: totalDocs });
    }
  }

  /**
   * The filters as `AND …` over `memory_records r`. `matched`: the full-text match already
   * holds the namespace's lexeme, so the namespace is compared on the matched rows only
   * (`IS TRUE` keeps the planner from also reading every record of the project through
   * the namespace index to intersect with the match).
   */
  function filters(query: SearchOptions, matched = false) {
    const parts = [];
    if (query.namespace !== undefined) {
      parts.push(
        matched
          ? sql`AND (r.namespace = ${query.namespace}) IS TRUE`
          : sql`AND r.namespace = ${query.namespace}`,
      );
    }
    if (query.observationType !== undefined)
      parts.push(sql`AND r.observation_type = ${query.observationType}`);
    if (query.current === true) parts.push(sql`AND r.superseded_by IS NULL`);
    if (query.file !== undefined) {
      const suffix = `%/${escapeLike(query.file.replace(/^\/+/, ''))}`;
      parts.push(
        sql`AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(r.files::jsonb) AS f(v)
          WHERE f.v = ${query.file} OR f.v ILIKE ${suffix} ESCAPE '\\')`,
      );
    }
    return sql.join(parts, sql` `);
  }

  /**
   * Words whose document frequency needs no count (their lexeme is known, and so is its
   * frequency, as of the last record count): impactStart counts the others.
   */
  async function knownLexemes(words: readonly string[]): Promise<string[]> {
    const n = total?.n ?? (await totalDocs());
    const common = await settings.termStats.common(n);
    // The common lexemes are passed whether or not a word is known to have one: a word
    // not seen before may be one, and counting it would read thousands of postings.
    const known = common ? [...frequentLexemes(common, n)] : [];
    for (const word of words) {
      const found = lexemeCache.get(word);
      if (found?.length !== 1) continue;
      const lexeme = found[0]!;
      const cached = dfCache.get(lexeme);
      if (cached && Math.abs(n - cached.atTotal) <= cached.atTotal * 0.05) known.push(lexeme);
    }
    return known;
  }

  /** Common lexemes in more than FREQUENT records (per statistics object: they change every 30 s at most). */
  function frequentLexemes(common: CommonLexemes, n: number): readonly string[] {
    let found = frequent.get(common);
    if (!found) {
      found = [...common.shares].filter(([, share]) => share * n > FREQUENT).map(([l]) => l);
      frequent.set(common, found);
    }
    return found;
  }

  async function likeSearch(words: string[], query: SearchOptions): Promise<SearchHit[]> {
    const columns = ['title', 'summary', 'facts', 'concepts', 'files', 'questions'];
    const matched = words.map(
      (word) =>
        sql`(${sql.join(
          columns.map(
            (c) => sql`(${sql.ref(`r.${c}`)} ILIKE ${`%${escapeLike(word)}%`} ESCAPE '\\')::int`,
          ),
          sql` + `,
        )})`,
    );
    const { rows } = await sql<PgRecordRow & { score: number }>`
      SELECT * FROM (
        SELECT ${recordColumns('r')}, (${sql.join(matched, sql` + `)}) AS score
        FROM memory_records r WHERE true ${filters(query)}
      ) hits
      WHERE score > 0 ORDER BY score DESC, created_at DESC LIMIT ${query.limit}`.execute(db);
    return rows.map(({ score, ...row }) => ({
      record: pgRecordFromRow(row),
      score: Number(score),
      terms: words,
      via: 'like' as const,
    }));
  }

  return {
    async searchRecords(query) {
      ctx.ensureOpen();
      const words = tokenize(query.query);
      if (words.length === 0 || query.limit <= 0) return [];
      if ([query.namespace, query.file].some((key) => key !== undefined && hasNul(key))) {
        return [];
      }
      // The impact lists serve a project's search without other filters (for terms of one
      // lexeme each), once they hold every record; their first statement also finds the
      // lexemes and counts.
      const impacts =
        settings.impacts !== false &&
        (settings.impactsReady === undefined || (await settings.impactsReady()));
      const fast =
        impacts &&
        query.namespace !== undefined &&
        query.observationType === undefined &&
        query.current !== true &&
        query.file === undefined;
      let start: (ImpactStart & { totalDocs: number }) | undefined;
      if (fast && query.namespace !== undefined) {
        // The record count as totalDocs() reuses it (read in the same statement when stale).
        const reuse =
          total && total.n >= settings.cachedTotalFrom && Date.now() - total.at < TOTAL_TTL_MS
            ? total.n
            : undefined;
        const found = await impactStart(
          run,
          CONFIG,
          words,
          query.namespace,
          await knownLexemes(words),
          settings.maxPostings + 1,
          reuse === undefined,
        );
        if (lexemeCache.size + words.length > MAX_CACHED_WORDS) lexemeCache.clear();
        for (const [i, word] of words.entries()) lexemeCache.set(word, found.lexemes[i] ?? []);
        const n = reuse ?? found.totalDocs ?? 0;
        if (reuse === undefined) total = { n, at: Date.now() };
        start = { ...found, totalDocs: n };
      }
      const { lexemes, totalDocs } = start ?? (await lexemesOf(words));
      const common = await settings.termStats.common(totalDocs);
      // term (its lexemes) → tsquery text
      const terms = new Map<string, string>();
      const termOf: Array<string | undefined> = [];
      for (const found of lexemes) {
        if (found.length === 0) {
          termOf.push(undefined);
          continue;
        }
        const term = found.join(' ');
        termOf.push(term);
        terms.set(
          term,
          found.length === 1 ? quoteLexeme(term) : `(${found.map(quoteLexeme).join(' & ')})`,
        );
      }
      const df = await documentFrequencies(terms, totalDocs, common, impacts, start?.counted);
      const stats: TermStat[] = [];
      for (const [i, word] of words.entries()) {
        const term = termOf[i];
        if (term !== undefined) stats.push({ word, term, df: df.get(term) ?? 0 });
      }
      const plan = planQuery(stats, { ...settings.plan, totalDocs });
      if (plan.words.length === 0) return [];
      const kept = plan.words.map((word) => {
        const term = termOf[words.indexOf(word)] ?? '';
        const frequency = df.get(term) ?? 0;
        return {
          term,
          query: terms.get(term) ?? '',
          // FTS5's BM25 IDF (floored the same way), so both backends weigh terms alike.
          idf: Math.max(1e-6, Math.log((totalDocs - frequency + 0.5) / (frequency + 0.5))),
        };
      });
      try {
        const columnWeights = { ...settings.weights, ...query.weights };
        const weights = rankWeights(columnWeights);
        const askedWeight = questionsWeight(columnWeights);
        const anyTerm = kept.map((t) => t.query).join(' | ');
        const match =
          query.namespace === undefined
            ? anyTerm
            : `${quoteLexeme(namespaceLexeme(query.namespace))} & (${anyTerm})`;
        // A record's questions have a vector of their own: matched beside `search` (the
        // namespace is then compared by the filters), ranked with their own weight.
        const asked = askedWeight > 0 ? sql` OR r.questions_search @@ ${anyTerm}::tsquery` : sql``;
        const score = sql.join(
          kept.map((t) =>
            askedWeight > 0
              ? sql`${t.idf}::float8 * (ts_rank(${weights}::float4[], r.search, ${t.query}::tsquery, 1)
                  + ${askedWeight}::float8 * ts_rank('{1,1,1,1}'::float4[], r.questions_search, ${t.query}::tsquery, 1))`
              : sql`${t.idf}::float8 * ts_rank(${weights}::float4[], r.search, ${t.query}::tsquery, 1)`,
          ),
          sql` + `,
        );
        // The impact lists choose the records the same statement then ranks.
        const listed = fast && kept.every((t) => !t.term.includes(' '));
        let within = sql``;
        if (listed && query.namespace !== undefined) {
          const candidates = await impactCandidates(
            run,
            query.namespace,
            kept.map((t) => ({ lexeme: t.term, idf: t.idf })),
            weights,
            askedWeight,
            query.limit,
            start?.heads,
          );
          if (candidates.length === 0) return [];
          within = sql`AND r.record_id = ANY(${candidates}::text[])`;
        }
        // With candidates, their primary keys lead: the match is only checked (`IS TRUE`
        // keeps it from the index).
        const matched = listed
          ? sql`(r.search @@ ${match}::tsquery${asked}) IS TRUE`
          : sql`(r.search @@ ${match}::tsquery${asked})`;
        const ranking = sql<PgRecordRow & { score: number }>`
          SELECT ${recordColumns('r')}, (${score}) AS score
          FROM memory_records r
          WHERE ${matched} ${within} ${filters(query, true)}
          ORDER BY score DESC, r.record_id DESC
          LIMIT ${query.limit}`;
        // Through the lists the statement's text depends only on the number of terms and
        // whether questions count (the namespace is the one filter).
        const rows = listed
          ? await run(`kiro_learn_rank_${kept.length}_${askedWeight > 0 ? 'q' : 's'}`, ranking)
          : (await ranking.execute(search)).rows;
        return rows.map(({ score: s, ...row }) => ({
          record: pgRecordFromRow(row),
          score: Number(s),
          terms: plan.words,
          via: 'fts' as const,
        }));
      } catch (error) {
        // An unavailable server or a timeout is no reason to try a slower scan.
        if (translateError(error) instanceof StorageError) throw error;
        return likeSearch(plan.words, query);
      }
    },
  };
}
