import type { MemoryRecord } from '@kiro-learn/schema';
import type { RankedHit } from './rank.js';

/**
 * The newest of a chain. A record another one superseded (`superseded_by`, see "What gets
 * stored") is kept, searchable and labelled, but for a prompt about how things are now it
 * never ranks above the record that replaced it: when the ranking has the old one first,
 * the newest record of its chain is put just above it (fetched when the search did not
 * find it). A prompt that asks about an earlier state ("what did we use before", "why did
 * we switch") keeps the ranking as it is.
 */

/**
 * Words that ask about an earlier state rather than the current one. `before` followed by
 * a gerund is about the order of things (`wait before sending`, `know before touching`),
 * unless the gerund is a change (`before switching`); `the evening-before reminder` neither.
 */
const EARLIER =
  /\b((?<!-)before(?!-|\s+(?!(?:switch|mov|migrat|chang|replac|upgrad|port|lower|rais|reduc|dropp|remov|adopt|introduc)ing\b)(?!(?:any|some|every|no)thing\b)\w+ing\b)|previous(ly)?|used to|originally|original|old|older|earlier|former(ly)?|histor(y|ical)|back then|at first|initially|(changed|switched|moved|migrated) (away )?from|why did we (switch|move|change|stop|drop|migrate))\b/i;

/** Whether a prompt asks about how things were rather than how they are. */
export function asksEarlierState(prompt: string): boolean {
  return EARLIER.test(prompt);
}

/** Most links followed from a record to the newest of its chain. */
const MAX_CHAIN = 8;

export interface ChainResult<T extends RankedHit> {
  ranked: T[];
  /** Titles of the records that superseded records in `ranked` (for the context's note). */
  successors: Map<string, string>;
}

/**
 * Puts the newest record of each chain above the superseded records the ranking has
 * before it (unless the prompt asks about an earlier state), and collects the titles of
 * direct successors. `fetch` reads records by id (missing ones left out).
 */
export async function newestFirst<T extends RankedHit>(
  ranked: readonly T[],
  prompt: string,
  fetch: (ids: readonly string[]) => Promise<MemoryRecord[]>,
  wrap: (record: MemoryRecord, score: number) => T,
): Promise<ChainResult<T>> {
  const successors = new Map<string, string>();
  if (!ranked.some((hit) => hit.record.superseded_by)) return { ranked: [...ranked], successors };
  const known = new Map(ranked.map((hit) => [hit.record.record_id, hit.record]));
  // Follow the links until every chain's newest record is known (a few rounds at most).
  for (let round = 0; round < MAX_CHAIN; round++) {
    const missing = new Set<string>();
    for (const record of known.values()) {
      const next = record.superseded_by;
      if (next && !known.has(next)) missing.add(next);
    }
    if (missing.size === 0) break;
    const found = await fetch([...missing]);
    if (found.length === 0) break;
    for (const record of found) known.set(record.record_id, record);
  }
  const head = (record: MemoryRecord): MemoryRecord | undefined => {
    let current = record;
    for (let i = 0; i < MAX_CHAIN && current.superseded_by; i++) {
      const next = known.get(current.superseded_by);
      if (!next) return current === record ? undefined : current;
      current = next;
    }
    return current === record ? undefined : current;
  };
  for (const hit of ranked) {
    const next = hit.record.superseded_by && known.get(hit.record.superseded_by);
    if (next) successors.set(hit.record.record_id, next.title);
  }
  if (asksEarlierState(prompt)) return { ranked: [...ranked], successors };

  const out: T[] = [...ranked];
  for (let i = 0; i < out.length; i++) {
    const old = out[i]!;
    if (!old.record.superseded_by) continue;
    const newest = head(old.record);
    if (!newest) continue;
    const at = out.findIndex((hit) => hit.record.record_id === newest.record_id);
    if (at >= 0 && at < i) continue;
    // Scored just above the old record, so the order and the scores agree.
    const score = old.score * (1 + 1e-9) + 1e-12;
    const moved = at >= 0 ? { ...out[at]!, score } : wrap(newest, score);
    if (at >= 0) out.splice(at, 1);
    out.splice(i, 0, moved);
    i++;
  }
  return { ranked: out, successors };
}
