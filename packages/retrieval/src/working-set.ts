/**
 * The session's working set: the project files its turns so far read and changed. A prompt
 * seldom names the files its turn will touch ("continue with the next one"), but a session
 * keeps working on the files it started on, so records of earlier sessions that cover those
 * files are what the agent is likely to need: they are searched for, and rank higher.
 *
 * The files come from the session's own records (the built-in extractor lists every file a
 * turn read or wrote): the newest records of the project whose first or last source event
 * is the session's. Records of this session are never injected themselves (the agent holds
 * them, see session.ts); what they point at is.
 */
import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { HeadsReader } from './event-heads.js';
import { type RankedHit, type RankWeights, recencyFactor, tieBreak } from './rank.js';

/** The project's newest records read to find the session's own. */
export const RECENT_RECORDS = 50;
/** Most working-set files searched for (newest first). */
const SEARCHED_FILES = 8;
/** Records fetched by the working-set search. */
const COVERING = 20;
/** At most this many working-set files count for one record. */
const MAX_MATCHES = 2;

/**
 * Files the session's records list, newest record first; empty when it has none yet.
 * `recent`: the project's newest records (RECENT_RECORDS of them, read with the session's
 * events: sessionReads).
 */
export async function sessionFiles(
  recent: readonly MemoryRecord[],
  heads: HeadsReader,
  sessionId: string,
): Promise<string[]> {
  const ends = (record: MemoryRecord) => {
    const sources = record.source_event_ids;
    return sources.length === 0 ? [] : [sources[0]!, sources[sources.length - 1]!];
  };
  const withFiles = recent.filter((record) => record.files_touched.length > 0);
  const ids = [...new Set(withFiles.flatMap(ends))];
  if (ids.length === 0) return [];
  const mine = new Set(
    (await heads(ids)).filter((head) => head.sessionId === sessionId).map((head) => head.eventId),
  );
  const files: string[] = [];
  for (const record of withFiles) {
    if (!ends(record).some((id) => mine.has(id))) continue;
    for (const file of record.files_touched) if (!files.includes(file)) files.push(file);
  }
  return files;
}

const baseName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/**
 * Current records of the project that list a working-set file, found by the files' names
 * (lexical search over the files field) and kept when one of their files is in the set.
 */
export async function coveringRecords(
  storage: Pick<StorageBackend, 'searchRecords'>,
  namespace: string,
  files: readonly string[],
): Promise<MemoryRecord[]> {
  if (files.length === 0) return [];
  const set = new Set(files);
  const hits = await storage.searchRecords({
    namespace,
    query: files.slice(0, SEARCHED_FILES).map(baseName).join(' '),
    limit: COVERING,
    current: true,
    weights: { title: 0, summary: 0, facts: 0, concepts: 0, files: 1, questions: 0 },
  });
  return hits
    .map((hit) => hit.record)
    .filter((record) => record.files_touched.some((file) => set.has(file)));
}

/**
 * The ranking with the working set's evidence added: `weight` per working-set file a record
 * lists (two at most), times its recency factor; a covering record the prompt's search did
 * not find joins with that alone.
 */
export function withWorkingSet(
  ranked: readonly RankedHit[],
  covering: readonly MemoryRecord[],
  files: readonly string[],
  weight: number,
  weights: RankWeights,
  now: number,
): RankedHit[] {
  if (files.length === 0 || weight <= 0) return [...ranked];
  const set = new Set(files);
  const bonus = (record: MemoryRecord) => {
    let matches = 0;
    for (const file of record.files_touched) if (set.has(file)) matches++;
    return weight * Math.min(matches, MAX_MATCHES) * recencyFactor(record, weights, now);
  };
  const seen = new Set(ranked.map((hit) => hit.record.record_id));
  const out = ranked.map((hit) => {
    const add = bonus(hit.record);
    return add > 0 ? { ...hit, score: hit.score + add } : hit;
  });
  for (const record of covering) {
    if (seen.has(record.record_id)) continue;
    seen.add(record.record_id);
    out.push({ record, score: bonus(record) });
  }
  return out.sort(tieBreak);
}
