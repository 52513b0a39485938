import { type RawBuilder, sql } from 'kysely';

/**
 * Runs a statement whose text depends only on `name` (search.ts: as a prepared statement of
 * the search pool, planned once per connection).
 */
export type RunStatement = <R>(name: string, query: RawBuilder<R>) => Promise<R[]>;

/**
 * Top-k lexical search over impact-ordered postings (migration 0014), for the ranking
 * pgSearch gives: per kept term, idf × (ts_rank(label weights, search, term, 1) + aw ×
 * ts_rank(questions_search, term, 1)), summed. Ranking every record of the project that
 * holds a kept word reads each match's vector from the heap (~16 ms a prompt at 100k
 * records); here each term's list is read from its head, a page per round trip for all
 * open terms at once, until no unread record can reach the limit-th score (the threshold
 * algorithm). The records that can still be in the top then go through the very
 * statement the full ranking uses, restricted to them: scores and order are PostgreSQL's
 * own, not this file's arithmetic, which only has to bound them.
 *
 * ts_rank of one lexeme (tsrank.c, calc_rank_or, normalisation 1): with the lexeme's
 * positions in order, each of weight w_j (its label's weight), and wm the first largest,
 * at index m:  (wm + Σ w_j / (j+1)² − wm / (m+1)²) / 1.64493406685 / log2(len + 1),
 * where len counts every position of the vector. The vector is the labels' fields
 * concatenated in the order A (title), B (concepts, files), C (facts), D (summary), so the
 * positions of a label are one run, and the counts per label give the sequence.
 *
 * `impact` (written by SQL, impact_of) is G(reference weights) / 1.6449 / log2(len + 1)
 * plus the questions part, where G(w) = Σ_labels w_l · (run's share of Σ 1/(j+1)²) +
 * max_labels w_l · (1 − 1/(start_l + 1)²) ≥ the numerator above: G is at least the rank's
 * numerator (the first largest label is one of the max's terms), grows with every weight
 * and scales with them. So for any weights, a row's contribution is at most idf × k ×
 * impact, with k the largest ratio of a weight to its reference weight.
 */

/** The reference weights of impact_of (migration 0014), in rankWeights' order D, C, B, A. */
const REFERENCE_LABELS = [0.375, 0.375, 0.625, 1] as const;
const REFERENCE_QUESTIONS = 0.25;
/** ts_rank's divisor, limit of Σ 1/i². */
const ZETA2 = 1.64493406685;
/** Relative slack for float4 rounding (PostgreSQL ranks in float4, impacts are float4). */
const SLACK = 1e-5;

/** sum(1/j²), j = 1..n, for n up to every position a lexeme can have in four labels. */
const H2 = [0];
for (let j = 1; j <= 1100; j++) H2.push(H2[j - 1]! + 1 / (j * j));
const h2 = (n: number) => H2[Math.min(n, H2.length - 1)]!;

/** ts_rank of a lexeme of a search vector: packed label counts (A, B, C, D bytes), length, weights D, C, B, A. */
export function searchRank(tf: number, len: number, labels: readonly number[]): number {
  let start = 0;
  let resj = 0;
  let wm = -1;
  let m = 0;
  for (let l = 0; l < 4; l++) {
    const n = l === 3 ? (tf >>> 24) & 127 : (tf >>> (8 * l)) & 255;
    if (n === 0) continue;
    const w = labels[3 - l]!;
    resj += w * (h2(start + n) - h2(start));
    if (w > wm) {
      wm = w;
      m = start;
    }
    start += n;
  }
  if (start === 0) return 0;
  return (wm + resj - wm / ((m + 1) * (m + 1)) / 1) / ZETA2 / Math.log2(len + 1);
}

/** ts_rank of a lexeme of the questions vector (every weight 1). */
export function questionsRank(q: number, qlen: number): number {
  return q === 0 ? 0 : h2(q) / ZETA2 / Math.log2(qlen + 1);
}

/** How far a row's contribution can exceed its impact for these weights (≥ 1 × rounding). */
export function widen(labels: readonly number[], asked: number): number {
  let k = asked / REFERENCE_QUESTIONS;
  for (let l = 0; l < 4; l++) k = Math.max(k, labels[l]! / REFERENCE_LABELS[l]!);
  return k * (1 + SLACK);
}

export interface ImpactTerm {
  lexeme: string;
  idf: number;
}

interface List {
  lexeme: string;
  idf: number;
  /** The last row read (keyset for the next page); Infinity before the first. */
  impact: number;
  recordId: string;
  done: boolean;
  /** Upper bound of an unread row's contribution. */
  bound: number;
}

/** A posting as read: impact, record, packed label counts, questions count, lengths. */
export type ImpactRow = [
  impact: number,
  recordId: string,
  tf: number,
  q: number,
  len: number,
  qlen: number,
];

/** First page per list, then each round trip quadruples it (up to MAX_PAGE). */
export const FIRST_PAGE = 128;
const MAX_PAGE = 4096;
/**
 * Read on while more records than this (times the limit) could still be in the top: each is
 * ranked by SQL, but another page is a round trip (4: a second page in 37 % of searches at
 * 100k records; 8: 17 %, the final ranking no slower).
 */
const MAX_CANDIDATES_PER_LIMIT = 8;

/**
 * The records of `namespace` that can be among the `limit` best for the terms (any of
 * them), ranked with label weights `labels` (D, C, B, A; rankWeights) and questions weight
 * `asked`: a superset of the top, for the full ranking to order. `heads`: each lexeme's
 * first FIRST_PAGE rows when already read (impactStart), which saves a round trip.
 */
export async function impactCandidates(
  run: RunStatement,
  namespace: string,
  terms: readonly ImpactTerm[],
  labels: readonly number[],
  asked: number,
  limit: number,
  heads?: ReadonlyMap<string, readonly ImpactRow[]>,
): Promise<string[]> {
  const k = widen(labels, asked);
  const lists: List[] = terms.map((t) => ({
    lexeme: t.lexeme,
    idf: t.idf,
    impact: Number.POSITIVE_INFINITY,
    recordId: '',
    done: false,
    bound: Number.POSITIVE_INFINITY,
  }));
  // record → its score so far (lower bound, exact up to SLACK) and which lists it was in.
  const seen = new Map<string, { score: number; mask: number }>();
  const take = (i: number, row: readonly [number, string, number, number, number, number]) => {
    const [impact, recordId, tf, q, len, qlen] = row;
    const list = lists[i]!;
    const add =
      list.idf * (searchRank(tf, len, labels) + (asked > 0 ? asked * questionsRank(q, qlen) : 0));
    const s = seen.get(recordId);
    if (s) {
      s.score += add;
      s.mask |= 2 ** i;
    } else seen.set(recordId, { score: add, mask: 2 ** i });
    list.impact = impact;
    list.recordId = recordId;
  };
  let page = FIRST_PAGE;
  let fromHeads = heads !== undefined && lists.every((l) => heads.has(l.lexeme));
  for (;;) {
    const open = lists.map((l, i) => [l, i] as const).filter(([l]) => !l.done);
    if (open.length === 0) break;
    const read = new Map<number, number>();
    if (fromHeads) {
      fromHeads = false;
      for (const [list, i] of open) {
        const rows = heads?.get(list.lexeme) ?? [];
        for (const row of rows) take(i, row);
        read.set(i, rows.length);
      }
    } else {
      const rows = await run(
        'kiro_learn_impact_page',
        sql<{ r: [number, ...ImpactRow] }>`
        SELECT json_build_array(t.i, p.impact, p.record_id, p.tf, p.q, p.len, p.qlen) AS r
        FROM unnest(${open.map(([l]) => l.lexeme)}::text[], ${open.map(([l]) => String(l.impact))}::float4[],
          ${open.map(([l]) => l.recordId)}::text[], ${open.map(([, i]) => i)}::int[]) AS t(lexeme, after, after_id, i)
        CROSS JOIN LATERAL (
          SELECT p.impact, p.record_id, p.tf, p.q, p.len, p.qlen FROM impact_postings p
          WHERE p.lexeme = t.lexeme AND p.ns = (SELECT id FROM impact_namespaces WHERE namespace = ${namespace})
            AND (p.impact, p.record_id) < (t.after, t.after_id COLLATE "C")
          ORDER BY p.impact DESC, p.record_id DESC LIMIT ${page}
        ) p`,
      );
      for (const { r } of rows) {
        const [i, ...row] = r;
        take(i, row);
        read.set(i, (read.get(i) ?? 0) + 1);
      }
    }
    for (const [list, i] of open) {
      if ((read.get(i) ?? 0) < page) {
        list.done = true;
        list.bound = 0;
      } else list.bound = list.idf * k * list.impact;
    }
    page = Math.min(page * 4, MAX_PAGE);
    if (seen.size < limit) continue;
    const kth = kthScore(seen, limit) * (1 - SLACK);
    const unread = lists.reduce((sum, l) => sum + l.bound, 0);
    if (unread >= kth) continue;
    const candidates = candidatesAbove(seen, lists, kth);
    if (candidates.length <= limit * MAX_CANDIDATES_PER_LIMIT) return candidates;
  }
  if (seen.size <= limit) return [...seen.keys()];
  return candidatesAbove(seen, lists, kthScore(seen, limit) * (1 - SLACK));
}

/** The limit-th best score seen (a typed array's numeric sort). */
function kthScore(seen: ReadonlyMap<string, { score: number }>, limit: number): number {
  const scores = new Float64Array(seen.size);
  let i = 0;
  for (const s of seen.values()) scores[i++] = s.score;
  return scores.sort()[seen.size - limit]!;
}

/** Seen records whose score with their unread terms' bounds can reach `kth`. */
function candidatesAbove(
  seen: ReadonlyMap<string, { score: number; mask: number }>,
  lists: readonly List[],
  kth: number,
): string[] {
  const out: string[] = [];
  for (const [recordId, s] of seen) {
    let upper = s.score * (1 + SLACK);
    for (const [i, l] of lists.entries()) if ((s.mask & (2 ** i)) === 0) upper += l.bound;
    if (upper >= kth) out.push(recordId);
  }
  return out;
}

/**
 * How many records hold `lexeme` (in the search vector or the questions: one posting
 * each), up to `cap`: its folded count and its unfolded deltas (migration 0018,
 * impact-counts.ts), two index probes where counting its postings read up to `cap` rows.
 */
const countOf = (lexeme: RawBuilder<unknown>, cap: number) => sql`least(${cap}::bigint,
  coalesce((SELECT c.n FROM impact_counts c WHERE c.lexeme = ${lexeme}), 0)
  + coalesce((SELECT sum(d.n) FROM impact_count_deltas d WHERE d.lexeme = ${lexeme}), 0))`;

/** How many records hold each lexeme (in the search vector or the questions), up to `cap`. */
export async function postingCounts(
  run: RunStatement,
  lexemes: readonly string[],
  cap: number,
): Promise<number[]> {
  const rows = await run(
    'kiro_learn_impact_counts',
    sql<{ i: string; df: string }>`
    SELECT t.i, ${countOf(sql`t.lexeme`, cap)} AS df
    FROM unnest(${lexemes}::text[]) WITH ORDINALITY AS t(lexeme, i)`,
  );
  const out = lexemes.map(() => 0);
  for (const row of rows) out[Number(row.i) - 1] = Number(row.df);
  return out;
}

/** A prompt's words as impactStart found them. */
export interface ImpactStart {
  /** Per word, its lexemes (none for a stop word). */
  lexemes: string[][];
  /** Document frequencies counted (lexemes not `known`, capped). */
  counted: Map<string, number>;
  /** Each single lexeme's first FIRST_PAGE rows in the namespace. */
  heads: Map<string, ImpactRow[]>;
  /** The record count, when asked for (`countRecords`). */
  totalDocs: number | undefined;
}

/**
 * What a search needs before it plans, in one statement: the words' lexemes, the document
 * frequencies not `known` yet (counted up to `cap`), the record count if asked, the head of
 * each word's list in the namespace (read for every word, before the plan drops some: a
 * page costs less than a round trip).
 */
export async function impactStart(
  run: RunStatement,
  config: string,
  words: readonly string[],
  namespace: string,
  known: readonly string[],
  cap: number,
  countRecords: boolean,
): Promise<ImpactStart> {
  const rows = await run(
    'kiro_learn_impact_start',
    sql<{
      i: string;
      lexemes: string[];
      df: string | null;
      head: ImpactRow[] | null;
      n: string | null;
    }>`
    WITH w AS (
      SELECT w.i, tsvector_to_array(to_tsvector(${config}::regconfig, w.word)) AS lexemes
      FROM unnest(${words}::text[]) WITH ORDINALITY AS w(word, i)
    )
    SELECT w.i, w.lexemes,
      CASE WHEN cardinality(w.lexemes) = 1 AND NOT w.lexemes[1] = ANY(${known}::text[]) THEN
        ${countOf(sql`w.lexemes[1]`, cap)}
      END AS df,
      CASE WHEN cardinality(w.lexemes) = 1 THEN
        (SELECT json_agg(json_build_array(h.impact, h.record_id, h.tf, h.q, h.len, h.qlen)
            ORDER BY h.impact DESC, h.record_id DESC)
         FROM (SELECT p.impact, p.record_id, p.tf, p.q, p.len, p.qlen FROM impact_postings p
           WHERE p.lexeme = w.lexemes[1]
             AND p.ns = (SELECT id FROM impact_namespaces WHERE namespace = ${namespace})
           ORDER BY p.impact DESC, p.record_id DESC LIMIT ${FIRST_PAGE}) h)
      END AS head,
      CASE WHEN ${countRecords}::boolean THEN (SELECT sum(memories) FROM namespace_counts) END AS n
    FROM w ORDER BY w.i`,
  );
  const lexemes = words.map(() => [] as string[]);
  const counted = new Map<string, number>();
  const heads = new Map<string, ImpactRow[]>();
  for (const row of rows) {
    const found = row.lexemes;
    lexemes[Number(row.i) - 1] = found;
    if (found.length !== 1) continue;
    if (row.df !== null) counted.set(found[0]!, Number(row.df));
    heads.set(found[0]!, row.head ?? []);
  }
  const n = rows[0]?.n;
  return {
    lexemes,
    counted,
    heads,
    totalDocs: n === null || n === undefined ? undefined : Number(n),
  };
}
