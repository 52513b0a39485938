import pg from 'pg';
import { StorageError } from '../errors.js';
import { translateError } from './context.js';

/**
 * One connection kept for one writer (the event batcher), outside the pool: opened on first
 * use, dropped when it breaks (server restart, terminated backend) and opened again by the
 * next statement. A pooled statement paid the pool's acquire and release (listeners, an
 * idle timer) every time, for a writer that sends one statement at a time anyway.
 */
export class OwnConnection {
  readonly #config: pg.ClientConfig;
  #client: Promise<pg.Client> | undefined;
  #closed = false;

  constructor(config: pg.ClientConfig) {
    this.#config = config;
  }

  /** Runs one statement on the connection (opening it first when there is none). */
  async query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    const opening = this.#open();
    const client = await opening;
    try {
      return await client.query<R>(config);
    } catch (error) {
      // A broken connection fails every statement after it: the next one opens another.
      // (A statement's own error, a timeout or a constraint, leaves it usable.)
      const translated = translateError(error);
      if (translated instanceof StorageError && translated.code === 'unavailable') {
        this.#drop(opening);
      }
      throw error;
    }
  }

  /** Closes the connection; a statement after this fails. */
  async close(): Promise<void> {
    this.#closed = true;
    const opening = this.#client;
    this.#client = undefined;
    const client = await opening?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  #open(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('Connection terminated: closed'));
    if (this.#client) return this.#client;
    const client = new pg.Client(this.#config);
    const opening = client.connect().then(() => client);
    this.#client = opening;
    // An idle connection that breaks must not crash the process: it is dropped, and the
    // next statement opens another.
    const drop = () => this.#drop(opening);
    client.on('error', drop);
    client.on('end', drop);
    opening.catch(drop);
    return opening;
  }

  #drop(opening: Promise<pg.Client>): void {
    if (this.#client !== opening) return;
    this.#client = undefined;
    void opening.then((client) => client.end()).catch(() => undefined);
  }
}
