import type { MemoryRecord } from '@kiro-learn/schema';
import { ownStems, saysNothing } from './echo.js';

/**
 * What a session starts with: a short overview a returning developer (and their agent)
 * can act on, never the budget filled with the latest turns. In this order, newest first
 * within each part:
 *
 * 1. open problems: errors no later turn fixed (`unresolved`), at most 2;
 * 2. recent decisions, at most 2;
 * 3. what changed lately: records of turns that touched files, at most 2;
 *
 * topped up with the newest other records that say something when fewer than three were
 * found. Never a record another one superseded, one that says nothing, or a bare request
 * (a turn that asked and did nothing).
 */
export interface OverviewOptions {
  /** Most records (default 5). */
  records?: number;
}

const PARTS = { problems: 2, decisions: 2, changes: 2 } as const;
const MIN_RECORDS = 3;

/**
 * A record with no fact and no file that only states a request: the built-in extractor's
 * earlier `Request: …` summaries without an `Outcome:`, or a summary that says nothing its
 * title does not.
 */
export function bareRequest(record: MemoryRecord): boolean {
  if (record.facts.length > 0 || record.files_touched.length > 0) return false;
  if (/^Request:/m.test(record.summary) && !/^Outcome:/m.test(record.summary)) return true;
  const title = ownStems(record.title);
  for (const word of ownStems(record.summary)) if (!title.has(word)) return false;
  return true;
}

function unresolved(record: MemoryRecord): boolean {
  return (
    record.observation_type === 'error' &&
    (record.concepts.includes('unresolved') || /\bunresolved\b/i.test(record.title))
  );
}

function superseded(record: MemoryRecord): boolean {
  return record.superseded_by !== undefined;
}

/** Picks the overview from the project's newest records (newest first). */
export function overview(
  newest: readonly MemoryRecord[],
  options: OverviewOptions = {},
): MemoryRecord[] {
  const limit = options.records ?? 5;
  const usable = newest.filter(
    (record) => !superseded(record) && !saysNothing(record) && !bareRequest(record),
  );
  const chosen = new Set<MemoryRecord>();
  const take = (pick: (record: MemoryRecord) => boolean, quota: number) => {
    for (const record of usable.filter((r) => !chosen.has(r) && pick(r)).slice(0, quota)) {
      if (chosen.size < limit) chosen.add(record);
    }
  };
  take(unresolved, PARTS.problems);
  take((record) => record.observation_type === 'decision', PARTS.decisions);
  take((record) => record.files_touched.length > 0, PARTS.changes);
  if (chosen.size < MIN_RECORDS) take(() => true, MIN_RECORDS - chosen.size);
  return [...chosen];
}
