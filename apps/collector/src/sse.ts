import { type Activity, eventSummary } from './activity.js';

/** Limits of the server-sent-events fan-out. */
export interface FanoutOptions {
  /** Streams open at once; one more is refused (503). */
  maxStreams: number;
  /**
   * Bytes a client may have waiting beyond what its socket and stream already hold. A
   * client that stops reading reaches it and is disconnected: its memory is freed and a
   * browser's EventSource reconnects by itself.
   */
  maxQueuedBytes: number;
  /** Called once for each client dropped for not reading. */
  onDrop?: () => void;
}

export const FANOUT_DEFAULTS: Readonly<FanoutOptions> = Object.freeze({
  maxStreams: 64,
  maxQueuedBytes: 1024 * 1024,
});

/** What the stream route gets for one client. */
export interface StreamClient {
  /** The response body: `text/event-stream` bytes. */
  readonly body: ReadableStream<Uint8Array>;
  /** Queues a comment line (the heartbeat). */
  comment(text: string): void;
  /** Ends the stream normally (shutdown). */
  close(): void;
}

interface Client {
  /** Cuts the connection under the stream (the socket's own buffers go with it). */
  disconnect?: () => void;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Chunks the stream's own queue had no room for, oldest first. */
  waiting: Uint8Array[];
  waitingBytes: number;
  done: boolean;
}

const encoder = new TextEncoder();
/** What the stream itself buffers for a client before chunks wait in `waiting`. */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;

/**
 * Fans activity out to SSE clients, off the ingest path: `publish` only appends to a list;
 * a later turn of the event loop serializes each activity once (not once per client)
 * and hands every client one chunk for the whole batch. Memory is bounded per client
 * (`maxQueuedBytes` plus the stream's 64 KiB) and freed when it disconnects.
 */
export class SseFanout {
  readonly #options: FanoutOptions;
  readonly #clients = new Set<Client>();
  #batch: Activity[] = [];
  #scheduled = false;
  #nextId = 0;

  constructor(options: Partial<FanoutOptions> = {}) {
    this.#options = { ...FANOUT_DEFAULTS, ...options };
  }

  /** Streams allowed at once. */
  get limit(): number {
    return this.#options.maxStreams;
  }

  /** Clients connected now. */
  get size(): number {
    return this.#clients.size;
  }

  /** Queues an activity for every client; returns at once. */
  publish(activity: Activity): void {
    if (this.#clients.size === 0) return;
    this.#batch.push(activity);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  /**
   * A new client, or undefined when `maxStreams` are open. `disconnect` cuts the client's
   * connection when it is dropped for not reading (its socket holds data too).
   */
  open(disconnect?: () => void): StreamClient | undefined {
    if (this.#clients.size >= this.#options.maxStreams) return undefined;
    let client: Client | undefined;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          client = {
            controller,
            waiting: [],
            waitingBytes: 0,
            done: false,
            ...(disconnect ? { disconnect } : {}),
          };
          this.#clients.add(client);
        },
        pull: () => {
          if (client) this.#refill(client);
        },
        cancel: () => {
          if (client) this.#forget(client);
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER_BYTES }),
    );
    const c = client!;
    return {
      body,
      comment: (text) => this.#send(c, encoder.encode(`: ${text}\n\n`)),
      close: () => {
        if (c.done) return;
        this.#forget(c);
        try {
          c.controller.close();
        } catch {
          // already errored or closed
        }
      },
    };
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    for (const client of [...this.#clients]) {
      this.#forget(client);
      try {
        client.controller.close();
      } catch {
        // already errored or closed
      }
    }
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#batch;
    this.#batch = [];
    if (this.#clients.size === 0) return;
    let text = '';
    for (const activity of batch) {
      const data =
        activity.type === 'event'
          ? eventSummary(activity.event)
          : activity.type === 'retrieval'
            ? activity.retrieval
            : activity.extraction;
      text += `event: ${activity.type}\ndata: ${JSON.stringify(data)}\nid: ${++this.#nextId}\n\n`;
    }
    const chunk = encoder.encode(text);
    for (const client of this.#clients) this.#send(client, chunk);
  }

  #send(client: Client, chunk: Uint8Array): void {
    if (client.done) return;
    if (client.waiting.length === 0 && (client.controller.desiredSize ?? 0) > 0) {
      client.controller.enqueue(chunk);
      return;
    }
    client.waiting.push(chunk);
    client.waitingBytes += chunk.byteLength;
    if (client.waitingBytes > this.#options.maxQueuedBytes) this.#drop(client);
  }

  #refill(client: Client): void {
    while (client.waiting.length > 0 && (client.controller.desiredSize ?? 0) > 0) {
      const chunk = client.waiting.shift()!;
      client.waitingBytes -= chunk.byteLength;
      client.controller.enqueue(chunk);
    }
  }

  /** A client that stopped reading: cut it, which frees its queue and closes its socket. */
  #drop(client: Client): void {
    this.#forget(client);
    // Ended, not errored: an errored stream made the HTTP adapter print the error, with its
    // stack, on the collector's terminal for every dropped client. Cutting the socket then
    // cancels the stream and frees what it still held.
    try {
      client.controller.close();
    } catch {
      // already closed
    }
    client.disconnect?.();
    this.#options.onDrop?.();
  }

  #forget(client: Client): void {
    client.done = true;
    client.waiting = [];
    client.waitingBytes = 0;
    this.#clients.delete(client);
  }
}
