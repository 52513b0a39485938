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
  // session key → record id → ISO time it was injected
  readonly #sessions = new Map<string, Map<string, string>>();

  constructor(storage: StorageBackend, maxSessions: number) {
    this.#storage = storage;
    this.#maxSessions = maxSessions;
  }

  /** The session's injected records, loading them from the log on first use. */
  async load(namespace: string, sessionId: string): Promise<Map<string, string>> {
    const key = `${namespace}\n${sessionId}`;
    let seen = this.#sessions.get(key);
    if (seen) {
      // Re-insert to mark the session most recently used.
      this.#sessions.delete(key);
    } else {
      seen = new Map();
      const entries = await this.#storage.listRetrievals({ namespace, sessionId, limit: 500 });
      for (const entry of entries) {
        if (entry.sessionId !== sessionId || entry.timedOut) continue;
        for (const id of entry.recordIds) {
          const before = seen.get(id);
          if (before === undefined || before < entry.createdAt) seen.set(id, entry.createdAt);
        }
      }
    }
    this.#sessions.set(key, seen);
    while (this.#sessions.size > this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
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
