import type Database from 'better-sqlite3';

interface Pending {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups writes that arrive in the same tick into one transaction: one commit (one WAL
 * append) for many small inserts, which is where SQLite's write throughput comes from.
 * A failing batch is retried item by item so one bad write cannot fail its neighbours.
 *
 * Writes are synchronous better-sqlite3 calls inside a synchronous `BEGIN IMMEDIATE`
 * transaction, not kysely: kysely's per-query building and compiling cost more than the
 * insert itself, and its async transactions held the connection across awaits. A
 * synchronous transaction commits within one turn of the event loop, so no read or other
 * write can ever interleave with it. Each promise settles only after its commit.
 */
export class WriteBatcher {
  readonly #queue: Pending[] = [];
  readonly #transaction: Database.Transaction<(items: readonly Pending[]) => unknown[]>;
  readonly #maxBatch: number;
  readonly #onCommit: () => void;
  #scheduled = false;

  /**
   * `onCommit` runs after each committed transaction (the checkpointer counts them);
   * `tail` runs inside each transaction after its writes (derived tables catch up in the
   * same commit), and must not throw.
   */
  constructor(
    sqlite: Database.Database,
    onCommit: () => void = () => {},
    maxBatch = 256,
    tail: () => void = () => {},
  ) {
    this.#transaction = sqlite.transaction((items: readonly Pending[]) => {
      const results = items.map((item) => item.run());
      tail();
      return results;
    });
    this.#onCommit = onCommit;
    this.#maxBatch = maxBatch;
  }

  /** Runs `write` (synchronous statements only) in the next batch's transaction. */
  enqueue<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run: write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      let results: unknown[];
      try {
        results = this.#transaction.immediate(batch);
      } catch {
        for (const item of batch) this.#alone(item);
        continue;
      }
      this.#onCommit();
      for (const [i, item] of batch.entries()) item.resolve(results[i]);
    }
  }

  #alone(item: Pending): void {
    try {
      item.resolve(this.#transaction.immediate([item])[0]);
      this.#onCommit();
    } catch (error) {
      item.reject(error);
    }
  }
}
