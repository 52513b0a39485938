import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';

/**
 * Which records each session has already been shown, so a prompt never re-injects what
 * the agent has in its context. Held in memory (a bounded LRU of sessions) and rebuilt
 * from the retrieval log the first time a session is seen after a restart, so a daemon
 * restart does not make the agent see everything twice.
 */
export class SeenRecords {
  readonly #storage: StorageBackend;
  readonly #maxSessions: number;
  // session key → record id → ISO time it was injected; a promise so that two prompts of
  // one session arriving together share one load from the log.
  readonly #sessions = new Map<string, Promise<Map<string, string>>>();

  constructor(storage: StorageBackend, maxSessions: number) {
    this.#storage = storage;
    this.#maxSessions = maxSessions;
  }

  /** The session's injected records, loading them from the log on first use. */
  load(namespace: string, sessionId: string): Promise<Map<string, string>> {
    const key = `${namespace}\n${sessionId}`;
    let seen = this.#sessions.get(key);
    if (seen) {
      // Re-inserted below to mark the session most recently used.
      this.#sessions.delete(key);
    } else {
      seen = this.#fromLog(namespace, sessionId);
      // A failed load is not cached: the next prompt tries again.
      seen.catch(() => this.#sessions.delete(key));
    }
    this.#sessions.set(key, seen);
    while (this.#sessions.size > this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    return seen;
  }

  async #fromLog(namespace: string, sessionId: string): Promise<Map<string, string>> {
    const seen = new Map<string, string>();
    const entries = await this.#storage.listRetrievals({ namespace, sessionId, limit: 500 });
    for (const entry of entries) {
      if (entry.sessionId !== sessionId || entry.timedOut) continue;
      for (const id of entry.recordIds) {
        const before = seen.get(id);
        if (before === undefined || before < entry.createdAt) seen.set(id, entry.createdAt);
      }
    }
    return seen;
  }
}

/** True when the session has not been shown this version of the record. */
export function isFresh(record: MemoryRecord, seen: ReadonlyMap<string, string>): boolean {
  const injectedAt = seen.get(record.record_id);
  if (injectedAt === undefined) return true;
  return record.updated_at !== undefined && Date.parse(record.updated_at) > Date.parse(injectedAt);
}
