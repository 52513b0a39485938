import type Database from 'better-sqlite3';
import type { ColumnWeights } from '../backend.js';
import type { StatementCache } from './statements.js';

/**
 * An impact-ordered copy of the full-text index's postings, for top-k lexical search that
 * stops early. FTS5 ranks by scoring every record that holds a query word (BM25 reads each
 * hit's positions and its length: ~0.5 µs a hit, 9 ms for a word in 18,000 records); this
 * table holds, per (index term, namespace), the records in the order of their BM25
 * contribution, so a top-10 reads the first few hundred rows of each word's list and stops
 * once no unread record can enter the top (the no-random-access threshold algorithm).
 *
 * A row keeps what BM25 needs of the record for that term, the per-column term counts and
 * the record's length in tokens, so a score is computed exactly as FTS5's bm25() computes
 * it (same N, average length, IDF, k1, b) for any column weights; `impact` is only the
 * reading order: the contribution at fixed reference weights and a fixed average length,
 * quantised. For other weights or another average length an unread row's contribution is
 * bounded by `impact` times a factor (see `bound`), so the result stays exact.
 *
 * Maintained from triggers on memory_records: a deleted or edited record's rows go at once
 * (by the `rid` index, inside the same statement: nothing of a forgotten record stays
 * here), and the record's rid is queued; the queue is tokenised into rows inside the next
 * write transaction (`drainImpacts`), with the same tokenizer as the index, through a
 * scratch FTS5 table. Search uses the table only while the queue is empty.
 *
 * Over 400 lines on purpose, because the scoring bound, the top-k scan and the maintenance
 * that keeps them exact must change together: split, one could drift from the others.
 */

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;
/** Reading-order weights (title … questions) and average length: any values are correct. */
const REFERENCE_WEIGHTS = [8, 3, 3, 5, 5, 2] as const;
const REFERENCE_AVGDL = 64;
/** `impact` = floor(contribution × SCALE); contributions are below K1 + 1. */
const SCALE = 16_384;
/** Term counts per column are packed 6 bits each (a count above 63 is taken as 63). */
const TF_BITS = 64;
const TF_MAX = 63;
const COLUMNS = ['title', 'summary', 'facts', 'concepts', 'files', 'questions'] as const;
const TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** The scratch index that tokenises queued records (per connection: `temp`). */
export function createImpactScratch(sqlite: Database.Database): void {
  sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.impact_docs USING fts5(
      ${COLUMNS.join(', ')}, ns_token, tokenize='${TOKENIZER}')`);
  sqlite.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.impact_docs_vocab USING fts5vocab(temp, impact_docs, 'instance')",
  );
}

function packCounts(counts: readonly number[]): number {
  let packed = 0;
  for (let c = COLUMNS.length - 1; c >= 0; c--)
    packed = packed * TF_BITS + Math.min(counts[c]!, TF_MAX);
  return packed;
}

/** BM25's weighted term frequency of a packed count for `weights` (title … questions). */
function weightedFrequency(packed: number, weights: readonly number[]): number {
  let f = 0;
  let rest = packed;
  for (let c = 0; c < COLUMNS.length; c++) {
    const tf = rest % TF_BITS;
    rest = (rest - tf) / TF_BITS;
    if (tf > 0) f += tf * weights[c]!;
  }
  return f;
}

/** A term's BM25 contribution without its IDF (FTS5's formula). */
function contribution(f: number, length: number, avgdl: number): number {
  return (f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / avgdl));
}

/**
 * The most a row can contribute (BM25 without IDF, reference weights) at the index's
 * average length `avgdl`, when its contribution at the reference average length is below
 * `r` and the record is at least `shortest` tokens long. Below the reference average
 * every length normalises more, so the row contributes less than `r`, the less the longer
 * it is: a contribution below `r` at the reference average bounds a row's normalisation
 * there from below by what its frequency f needs (N_ref(len) ≥ f(K1 + 1)/r − f), and
 * scaled to `avgdl` (N grows (REFERENCE_AVGDL/avgdl) times faster with length) with
 * N(len) ≥ N(shortest) besides, the contribution f(K1 + 1)/(f + N) is largest at the f
 * where the two bounds meet: the row of the shortest length whose reference contribution
 * is `r`. Above the reference average, at most `avgdl / REFERENCE_AVGDL` times more
 * (whatever the length).
 */
function boundAt(r: number, shortest: number, avgdl: number): number {
  if (avgdl > REFERENCE_AVGDL) return (r * avgdl) / REFERENCE_AVGDL;
  if (r >= K1 + 1) return K1 + 1;
  // The weighted frequency giving `r` at the shortest length, then its contribution there.
  const f = (r * norm(shortest, REFERENCE_AVGDL)) / (K1 + 1 - r);
  // Equal to a row's contribution for a row of the shortest length: a hair above, so
  // rounding cannot put it below.
  return ((f * (K1 + 1)) / (f + norm(shortest, avgdl))) * (1 + 1e-12);
}

/** The inverse of boundAt below the reference average: the `r` whose bound is `c`. */
function referenceFor(c: number, shortest: number, avgdl: number): number {
  if (avgdl > REFERENCE_AVGDL) return (c * REFERENCE_AVGDL) / avgdl;
  if (c >= K1 + 1) return c;
  const f = (c * norm(shortest, avgdl)) / (K1 + 1 - c);
  return (f * (K1 + 1)) / (f + norm(shortest, REFERENCE_AVGDL));
}

/** BM25's length normalisation (times K1) of a record `length` long. */
const norm = (length: number, avgdl: number) => K1 * (1 - B + (B * length) / avgdl);

interface QueuedRow {
  rid: number;
  namespace: string;
  title: string;
  summary: string;
  facts: string;
  concepts: string;
  files: string;
  questions: string;
  ns_token: string;
}

/**
 * Turns up to `max` queued records into impact rows (synchronous: run it inside a write
 * transaction). Returns how many were taken off the queue.
 */
/**
 * Terms in more records than the postings budget: no search plan keeps them (planQuery),
 * so their rows would only take space (a word in every record is a row per record). They
 * are dropped once counted past the budget and never written again (`impact_stopped`);
 * counts are FTS5's, cached per term until the index grew by a tenth.
 */
export class StopTerms {
  readonly #counted = new Map<string, number>();
  readonly #maxPostings: number;
  #stopped = new Set<string>();
  constructor(maxPostings: number) {
    this.#maxPostings = maxPostings;
  }

  /** Reads the stopped terms (at the start of every drain: a rolled-back one may have added some). */
  load(statements: StatementCache): void {
    this.#stopped = new Set(
      statements.prepare('SELECT term FROM impact_stopped').pluck().all() as string[],
    );
  }

  /** Whether `term` is (now) past the budget; stops it when it just went past. */
  check(statements: StatementCache, term: string, rows: number): boolean {
    const stopped = this.#stopped;
    if (stopped.has(term)) return true;
    const at = this.#counted.get(term);
    if (at !== undefined && rows <= at * 1.1) return false;
    const df = Number(
      statements.prepare('SELECT doc FROM memory_vocab WHERE term = ?').pluck().get(term) ?? 0,
    );
    if (df <= this.#maxPostings) {
      if (this.#counted.size >= 100_000) this.#counted.clear();
      this.#counted.set(term, rows);
      return false;
    }
    statements.prepare('INSERT OR IGNORE INTO impact_stopped (term) VALUES (?)').run(term);
    statements.prepare('DELETE FROM impact_postings WHERE term = ?').run(term);
    stopped.add(term);
    this.#counted.delete(term);
    return true;
  }

  /** Forgets the counts (after a failed drain). */
  reset(): void {
    this.#counted.clear();
  }
}

export function drainImpacts(statements: StatementCache, max: number, stop?: StopTerms): number {
  const queued = statements
    .prepare(
      `SELECT q.rid, r.namespace, r.title, r.summary, r.facts, r.concepts, r.files, r.questions, r.ns_token
       FROM impact_queue q LEFT JOIN memory_records r ON r.rid = q.rid ORDER BY q.rid LIMIT ?`,
    )
    .all(max) as Array<QueuedRow & { namespace: string | null }>;
  if (queued.length === 0) return 0;
  const scratch = statements.prepare(
    `INSERT INTO temp.impact_docs (rowid, ${COLUMNS.join(', ')}, ns_token) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const present = queued.filter((row) => row.namespace !== null);
  for (const row of present) {
    scratch.run(
      row.rid,
      row.title,
      row.summary,
      row.facts,
      row.concepts,
      row.files,
      row.questions,
      row.ns_token,
    );
  }
  const instances = statements
    .prepare('SELECT term, doc, col FROM temp.impact_docs_vocab')
    .raw()
    .all() as Array<[string, number, string]>;
  statements.prepare('DELETE FROM temp.impact_docs').run();
  const columnOf = new Map<string, number>(COLUMNS.map((c, i) => [c, i]));
  // Per record: its length (every token, the namespace column's too, as FTS5 counts it) and
  // each term's counts per content column.
  const docs = new Map<number, { length: number; terms: Map<string, number[]> }>();
  for (const [term, doc, col] of instances) {
    let d = docs.get(doc);
    if (!d) {
      d = { length: 0, terms: new Map() };
      docs.set(doc, d);
    }
    d.length++;
    const c = columnOf.get(col);
    if (c === undefined) continue;
    let counts = d.terms.get(term);
    if (!counts) {
      counts = [0, 0, 0, 0, 0, 0];
      d.terms.set(term, counts);
    }
    counts[c]!++;
  }
  const nsId = statements.prepare('SELECT id FROM impact_namespaces WHERE namespace = ?').pluck();
  const newNs = statements.prepare('INSERT INTO impact_namespaces (namespace) VALUES (?)');
  const clear = statements.prepare('DELETE FROM impact_postings WHERE rid = ?');
  const insert = statements.prepare(
    'INSERT OR REPLACE INTO impact_postings (term, ns, impact, rid, tf, len) VALUES (?, ?, ?, ?, ?, ?)',
  );
  stop?.load(statements);
  const rows = stop ? indexTotals(statements).rows : 0;
  // The shortest record of each (term, namespace) list this batch adds to (impact_lengths).
  const shortest = new Map<string, { term: string; ns: number; len: number }>();
  for (const row of present) {
    const d = docs.get(row.rid);
    clear.run(row.rid);
    if (!d) continue;
    let ns = nsId.get(row.namespace) as number | undefined;
    if (ns === undefined) ns = Number(newNs.run(row.namespace).lastInsertRowid);
    for (const [term, counts] of d.terms) {
      if (stop?.check(statements, term, rows)) continue;
      const f = weightedFrequency(packCounts(counts), REFERENCE_WEIGHTS);
      const impact = Math.floor(contribution(f, d.length, REFERENCE_AVGDL) * SCALE);
      insert.run(term, ns, impact, row.rid, packCounts(counts), d.length);
      const key = `${ns} ${term}`;
      const least = shortest.get(key);
      if (!least) shortest.set(key, { term, ns, len: d.length });
      else if (d.length < least.len) least.len = d.length;
    }
  }
  const length = statements.prepare(
    `INSERT INTO impact_lengths (term, ns, len) VALUES (?, ?, ?)
     ON CONFLICT (term, ns) DO UPDATE SET len = min(len, excluded.len)`,
  );
  for (const { term, ns, len } of shortest.values()) length.run(term, ns, len);
  statements.prepare('DELETE FROM impact_queue WHERE rid <= ?').run(queued.at(-1)!.rid);
  return queued.length;
}

/** Whether records wait to be tokenised (the table is then incomplete). */
export function impactsPending(statements: StatementCache): boolean {
  return statements.prepare('SELECT EXISTS (SELECT 1 FROM impact_queue)').pluck().get() === 1;
}

/** Rows in the full-text index and its average row length (FTS5's own totals). */
export function indexTotals(statements: StatementCache): { rows: number; avgdl: number } {
  const block = statements
    .prepare('SELECT block FROM memory_fts_data WHERE id = 1')
    .pluck()
    .get() as Buffer | undefined;
  if (!block) return { rows: 0, avgdl: 0 };
  const values: number[] = [];
  let i = 0;
  while (i < block.length) {
    let v = 0;
    for (let j = 0; j < 9 && i < block.length; j++) {
      const x = block[i++]!;
      if (j === 8) {
        v = v * 256 + x;
        break;
      }
      v = v * 128 + (x & 0x7f);
      if ((x & 0x80) === 0) break;
    }
    values.push(v);
  }
  const rows = values[0] ?? 0;
  const tokens = values.slice(1).reduce((a, b) => a + b, 0);
  return { rows, avgdl: rows > 0 ? tokens / rows : 0 };
}

/**
 * The shortest record length of each term's list in namespace `ns` (0 when unknown: a
 * database opened read-only before migration 0015, whose bound is then the looser one).
 */
function shortestLengths(statements: StatementCache, ns: number): (term: string) => number {
  try {
    const lookup = statements
      .prepare('SELECT len FROM impact_lengths WHERE term = ? AND ns = ?')
      .pluck();
    return (term) => Number(lookup.get(term, ns) ?? 0);
  } catch {
    return () => 0;
  }
}

/** A query term: its index term and how many records hold it (for IDF). */
export interface ImpactTerm {
  term: string;
  df: number;
}

/** A ranked record: its rid and its BM25 score (positive, higher first). */
export interface ImpactHit {
  rid: number;
  score: number;
}

const PAGE = 128;

/** weightedFrequency in SQL, of the row's `tf`, with the six weights as parameters. */
const WEIGHTED_SQL = COLUMNS.map((_, c) => `((tf >> ${c * 6}) & 63) * ?`).join(' + ');

/**
 * The `limit` best records of a namespace for the terms (OR, BM25 with `weights`), best
 * first, ties by rid (newer first); exactly the scores FTS5's bm25() gives them. Reads
 * each term's rows in impact order, a page at a time from the term with the highest bound,
 * until neither an unread row nor a partly seen record can pass the limit-th score; then
 * completes the top records' missing terms by rid.
 */
export function impactTopK(
  statements: StatementCache,
  namespace: string,
  terms: readonly ImpactTerm[],
  weights: ColumnWeights,
  limit: number,
): ImpactHit[] {
  const ns = statements
    .prepare('SELECT id FROM impact_namespaces WHERE namespace = ?')
    .pluck()
    .get(namespace) as number | undefined;
  if (ns === undefined || terms.length === 0 || limit <= 0) return [];
  const { rows: n, avgdl } = indexTotals(statements);
  if (n === 0) return [];
  const w = COLUMNS.map((c) => weights[c]);
  // Other weights make a row's contribution at most this many times its contribution at
  // the reference weights (a contribution is concave in the weighted frequency, from 0);
  // boundAt takes care of the average length.
  const widen = Math.max(1, ...w.map((x, c) => x / REFERENCE_WEIGHTS[c]!));
  const shortestOf = shortestLengths(statements, ns);
  const first = statements.prepare(
    'SELECT impact, rid, tf, len FROM impact_postings WHERE term = ? AND ns = ? ORDER BY impact DESC, rid DESC LIMIT ?',
  );
  const next = statements.prepare(
    `SELECT impact, rid, tf, len FROM impact_postings WHERE term = ? AND ns = ? AND (impact, rid) < (?, ?)
     ORDER BY impact DESC, rid DESC LIMIT ?`,
  );
  const lists = terms.map((t) => {
    let idf = Math.log((n - t.df + 0.5) / (t.df + 0.5));
    if (idf <= 0) idf = 1e-6;
    const shortest = shortestOf(t.term);
    const bound = idf * widen * boundAt(K1 + 1, shortest, avgdl);
    return { term: t.term, idf, shortest, impact: -1, rid: 0, done: false, bound };
  });
  const seen = new Map<number, { score: number; mask: number }>();
  // The limit-th best score so far: a typed array's numeric sort, not a comparator's.
  const kth = () => {
    if (seen.size < limit) return 0;
    const scores = new Float64Array(seen.size);
    let i = 0;
    for (const s of seen.values()) scores[i++] = s.score;
    return scores.sort()[seen.size - limit]!;
  };
  // Whether the limit-th best score is at least `x` (kth() >= x), counted without a sort:
  // asked after every page, and the answer is mostly no.
  const kthReaches = (x: number) => {
    let n = 0;
    for (const s of seen.values()) if (s.score >= x && ++n >= limit) return true;
    return false;
  };
  // A term's packed counts repeat across rows (most records hold a word once or twice):
  // their weighted frequency is computed once a search.
  const frequencies = new Map<number, number>();
  const frequency = (tf: number) => {
    let f = frequencies.get(tf);
    if (f === undefined) {
      f = weightedFrequency(tf, w);
      frequencies.set(tf, f);
    }
    return f;
  };
  /**
   * One term: the rest of its rows that can still reach the top, in one statement. A row
   * whose bound is at most `floor` (the limit-th score so far, which only rises) cannot
   * reach the final limit-th score, so the scan stops above those; of the rows above, only
   * those scoring at least `floor` (computed by SQLite, with a margin for its rounding)
   * come back, and are scored here exactly as page by page. The top is then the one the
   * pages would have found: each of its records scores at least `floor`, and every row
   * the pages would not have read scores below the final limit-th score.
   */
  const restOfOneTerm = (list: (typeof lists)[number], floor: number) => {
    // Below this impact a row's bound is under `floor` (a hair of margin for rounding).
    const reference = referenceFor(floor / (list.idf * widen), list.shortest, avgdl);
    const stopAt = Math.floor(reference * SCALE * (1 - 1e-9)) - 1;
    const rows = statements
      .prepare(
        `SELECT impact, rid, tf, len FROM impact_postings
         WHERE term = ? AND ns = ? AND (impact, rid) < (?, ?) AND impact > ?
           AND ? * (${WEIGHTED_SQL}) * ${K1 + 1} /
             ((${WEIGHTED_SQL}) + ${K1} * (${1 - B} + ${B} * len / ?)) >= ?`,
      )
      .raw()
      .all(
        list.term,
        ns,
        list.impact,
        list.rid,
        stopAt,
        list.idf,
        ...w,
        ...w,
        avgdl,
        floor - Math.abs(floor) * 1e-9,
      ) as Array<[number, number, number, number]>;
    for (const [, rid, tf, len] of rows) {
      const add = list.idf * contribution(frequency(tf), len, avgdl);
      const s = seen.get(rid);
      if (s) s.score += add;
      else seen.set(rid, { score: add, mask: 1 });
    }
    list.done = true;
    list.bound = 0;
  };
  for (;;) {
    let list = lists[0]!;
    for (const l of lists) if (!l.done && (list.done || l.bound > list.bound)) list = l;
    if (list.done) break;
    const rows = (
      list.impact < 0
        ? first.raw().all(list.term, ns, PAGE)
        : next.raw().all(list.term, ns, list.impact, list.rid, PAGE)
    ) as Array<[number, number, number, number]>;
    const bit = 1 << lists.indexOf(list);
    for (const [impact, rid, tf, len] of rows) {
      const add = list.idf * contribution(frequency(tf), len, avgdl);
      const s = seen.get(rid);
      if (s) {
        s.score += add;
        s.mask |= bit;
      } else seen.set(rid, { score: add, mask: bit });
      list.impact = impact;
      list.rid = rid;
    }
    if (rows.length < PAGE) {
      list.done = true;
      list.bound = 0;
    } else {
      list.bound = list.idf * widen * boundAt((list.impact + 1) / SCALE, list.shortest, avgdl);
    }
    if (lists.length === 1 && !list.done && seen.size >= limit) {
      restOfOneTerm(list, kth());
      continue;
    }
    const unread = lists.reduce((sum, l) => sum + l.bound, 0);
    if (seen.size < limit || !kthReaches(unread)) continue;
    const threshold = kth();
    // No unread record can pass; a partly seen one might, with its missing terms.
    let open = false;
    for (const s of seen.values()) {
      if (s.score >= threshold) continue;
      let upper = s.score;
      for (const [i, l] of lists.entries()) if ((s.mask & (1 << i)) === 0) upper += l.bound;
      if (upper > threshold) {
        open = true;
        break;
      }
    }
    if (!open) break;
  }
  // Only records at or above the limit-th score can be in the top: the rest are not sorted.
  const cut = kth();
  const ranked: Array<{ rid: number; score: number; mask: number }> = [];
  for (const [rid, s] of seen)
    if (s.score >= cut) ranked.push({ rid, score: s.score, mask: s.mask });
  ranked.sort((a, b) => b.score - a.score || b.rid - a.rid);
  // The top records' terms not read yet: looked up by rid (a term past its list's read
  // part still counts in full).
  const top = ranked.slice(0, limit);
  const missing = statements.prepare(
    'SELECT tf, len FROM impact_postings WHERE rid = ? AND term = ? AND ns = ?',
  );
  let changed = false;
  for (const hit of top) {
    for (const [i, l] of lists.entries()) {
      if ((hit.mask & (1 << i)) !== 0 || l.done) continue;
      const row = missing.raw().get(hit.rid, l.term, ns) as [number, number] | undefined;
      if (!row) continue;
      hit.score += l.idf * contribution(frequency(row[0]), row[1], avgdl);
      changed = true;
    }
  }
  if (changed) top.sort((a, b) => b.score - a.score || b.rid - a.rid);
  return top.map(({ rid, score }) => ({ rid, score }));
}
