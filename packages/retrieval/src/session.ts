import { isWindowReset, type MemoryRecord, resetsWindow } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import { contentStems } from './echo.js';
import { analysePrompt } from './terms.js';

/**
 * What the agent of a session still holds, so retrieval never hands it back:
 *
 * - **Its own turns.** Records made from this session's events are text the agent has in
 *   its context window already, until a compaction (or `/clear`) drops what came before:
 *   from then on those records are memory like any other. The window starts at the newest
 *   note whose `source` is `compact` or `clear` (every agent's compaction hook, Claude
 *   Code's SessionStart after a compaction or `/clear`), told by `sessionStart({ reason })`
 *   or `windowReset`, or read from the stored notes.
 * - **What it was shown.** A record injected earlier in the window is not injected again
 *   for a prompt on the same subject (unless it was edited since); for a prompt about other
 *   files or another subject it may come back, since the agent had no reason to connect
 *   the two. What the session start showed stays held for every prompt of the window.
 *
 * Kept in memory (a bounded LRU of sessions) and rebuilt from the retrieval log and the
 * session's notes the first time a session is seen after a restart.
 */
export interface SessionView {
  /** Epoch ms since which the agent holds the session; 0 for its whole length. */
  windowStart: number;
  /** Injected records: id → the subjects (prompts) they were shown for, with when. */
  shown: Map<string, Shown[]>;
}

/**
 * One showing of a record: when, and the subject of the prompt it was shown for; `any` at
 * session start, where the agent got it unasked, at the top of its window, for whatever
 * comes.
 */
export interface Shown {
  at: number;
  subject: Subject | 'any';
}

/** What a prompt is about: its content words and the paths it names. */
export interface Subject {
  stems: ReadonlySet<string>;
  paths: readonly string[];
}

/** The query the retrieval log keeps for a session start. */
export const SESSION_START_QUERY = '[session start]';

/** Share of a prompt's words a shown prompt must have for the two to be one subject. */
const SAME_SUBJECT = 0.5;

export function subjectOf(prompt: string): Subject {
  return { stems: contentStems(prompt), paths: analysePrompt(prompt).paths };
}

/** Whether two prompts are about the same thing: a path in common, or most words. */
export function sameSubject(now: Subject, then: Subject): boolean {
  if (now.paths.some((path) => then.paths.includes(path))) return true;
  if (now.stems.size === 0) return true;
  let shared = 0;
  for (const word of now.stems) if (then.stems.has(word)) shared++;
  return shared / now.stems.size >= SAME_SUBJECT;
}

export { resetsWindow };

const time = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

export class SessionViews {
  readonly #storage: StorageBackend;
  readonly #maxSessions: number;
  // A promise, so two prompts of one session arriving together share one load.
  readonly #sessions = new Map<string, Promise<SessionView>>();

  constructor(storage: StorageBackend, maxSessions: number) {
    this.#storage = storage;
    this.#maxSessions = maxSessions;
  }

  /** The session's view, loading it from the log and its notes on first use. */
  load(namespace: string, sessionId: string): Promise<SessionView> {
    const key = `${namespace}\n${sessionId}`;
    let view = this.#sessions.get(key);
    if (view) {
      // Re-inserted below to mark the session most recently used.
      this.#sessions.delete(key);
    } else {
      view = this.#restore(namespace, sessionId);
      // A failed load is not cached: the next prompt tries again.
      view.catch(() => this.#sessions.delete(key));
    }
    this.#sessions.set(key, view);
    while (this.#sessions.size > this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    return view;
  }

  async #restore(namespace: string, sessionId: string): Promise<SessionView> {
    const [entries, notes] = await Promise.all([
      this.#storage.listRetrievals({ namespace, sessionId, limit: 500 }),
      this.#storage.listEvents({ namespace, sessionId, kind: 'note', limit: 50 }),
    ]);
    let windowStart = 0;
    for (const note of notes.items) {
      if (note.session_id === sessionId && isWindowReset(note)) {
        windowStart = Math.max(windowStart, time(note.valid_time));
      }
    }
    const view: SessionView = { windowStart, shown: new Map() };
    for (const entry of entries) {
      if (entry.sessionId !== sessionId || entry.timedOut) continue;
      const shown: Shown = {
        at: time(entry.createdAt),
        subject: entry.query === SESSION_START_QUERY ? 'any' : subjectOf(entry.query),
      };
      for (const id of entry.recordIds) remember(view, id, shown);
    }
    return view;
  }
}

/** Notes that a record was shown for a subject. */
export function remember(view: SessionView, recordId: string, shown: Shown): void {
  const list = view.shown.get(recordId);
  if (!list) view.shown.set(recordId, [shown]);
  else if (list.length < 20) list.push(shown);
  else list.splice(0, 1, shown);
}

/**
 * Whether the session was shown this version of the record, within its window, for a
 * prompt on this subject (undefined: for any subject, as at session start).
 */
export function alreadyShown(
  view: SessionView,
  record: MemoryRecord,
  subject: Subject | undefined,
): boolean {
  const list = view.shown.get(record.record_id);
  if (!list) return false;
  const edited = record.updated_at === undefined ? 0 : time(record.updated_at);
  return list.some(
    (shown) =>
      shown.at >= view.windowStart &&
      shown.at >= edited &&
      (subject === undefined || shown.subject === 'any' || sameSubject(subject, shown.subject)),
  );
}
