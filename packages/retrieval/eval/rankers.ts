import { createRetriever } from '@kiro-learn/retrieval';
import type { MemoryRecord } from '@kiro-learn/schema';
import type { SqliteStorage } from '@kiro-learn/storage';

/**
 * A ranker under evaluation: set up once per set on the real store holding that set's
 * records (one namespace per project), then asked for each prompt.
 *
 * To add one, append a `RankerFactory` to RANKERS: it becomes a column of every table.
 */
export interface RankerContext {
  /** A real SQLite store holding every record of the set. */
  storage: SqliteStorage;
  /** The set's records as stored (record ids are fresh per run). */
  records: readonly MemoryRecord[];
  /** The eval's clock, for recency. */
  now: number;
}

/** One prompt of a set as a ranker sees it. */
export interface RankerQuery {
  /** The project's namespace: a ranker must answer from it alone. */
  namespace: string;
  prompt: string;
}

/** Record ids, best first; the tables read the first 5 (return up to 10). */
export type Ranker = (query: RankerQuery) => Promise<string[]>;

export interface RankerFactory {
  /** Column heading, one short word. */
  name: string;
  setup(context: RankerContext): Promise<Ranker> | Ranker;
}

/** Today's retrieval: storage's BM25 with the retriever's boosts and recency, as `search` ranks. */
export const lexical: RankerFactory = {
  name: 'lexical',
  setup({ storage, now }) {
    const retriever = createRetriever({ storage, now: () => now, log: false });
    return async ({ namespace, prompt }) =>
      (await retriever.search({ namespace, query: prompt, limit: 10 })).map(
        (hit) => hit.record.record_id,
      );
  },
};

export const RANKERS: readonly RankerFactory[] = [lexical];
