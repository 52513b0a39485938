/**
 * Groups writes that arrive in the same tick into one transaction: one commit (one WAL
 * append) for many small inserts, which is where SQLite's write throughput comes from.
 * A failing batch is retried item by item so one bad write cannot fail its neighbours.
 */
export class WriteBatcher<Ctx> {
  readonly #queue: Array<{
    run: (ctx: Ctx) => Promise<unknown>;
    resolve: (v: unknown) => void;
    reject: (e: unknown) => void;
  }> = [];
  readonly #transaction: <T>(work: (ctx: Ctx) => Promise<T>) => Promise<T>;
  readonly #maxBatch: number;
  #scheduled = false;

  constructor(transaction: <T>(work: (ctx: Ctx) => Promise<T>) => Promise<T>, maxBatch = 256) {
    this.#transaction = transaction;
    this.#maxBatch = maxBatch;
  }

  enqueue<T>(run: (ctx: Ctx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      try {
        const results = await this.#transaction(async (ctx) => {
          const out: unknown[] = [];
          for (const item of batch) out.push(await item.run(ctx));
          return out;
        });
        for (const [i, item] of batch.entries()) item.resolve(results[i]);
      } catch {
        for (const item of batch) {
          try {
            item.resolve(await this.#transaction((ctx) => item.run(ctx)));
          } catch (error) {
            item.reject(error);
          }
        }
      }
    }
    this.#scheduled = false;
  }
}
