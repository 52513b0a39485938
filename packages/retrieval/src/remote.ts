import type { MemoryRecord } from '@kiro-learn/schema';
import type { RankedHit } from './rank.js';

/** A record another source (a team memory server) found, with who wrote it. */
export interface RemoteHit {
  record: MemoryRecord;
  /** The member who shared it. */
  author: string;
  /** The source's own score, higher is better (only its order within the source counts). */
  score: number;
}

/**
 * Records from outside local storage, searched in parallel with it (team memory). Both
 * calls get a signal that aborts when their sub-budget runs out; what comes later is left
 * out, so a slow or unreachable source never delays a retrieval past `budgetMs`.
 */
export interface RemoteSource {
  /** How long a retrieval waits for the source, in ms (keep it under the retrieval budget). */
  budgetMs: number;
  /**
   * Whether the source has a side for this namespace (team memory: a shared project of a
   * joined team). False skips the call and its timer, so a prompt pays nothing for a
   * source that has nothing to say; absent means always ask.
   */
  covers?(namespace: string): boolean;
  /** Ranked hits for a prompt; undefined when the namespace has no remote side (not shared). */
  search(
    request: { namespace: string; query: string; limit: number },
    signal: AbortSignal,
  ): Promise<RemoteHit[] | undefined>;
  /** The newest records, for a starting session; undefined as for search. */
  recent(
    request: { namespace: string; limit: number },
    signal: AbortSignal,
  ): Promise<RemoteHit[] | undefined>;
  /** The local member's name: their own records are not labelled with an author. */
  self?: () => string | undefined;
  /** Told which remote records went into a context (after it is returned). */
  onPlaced?: (hits: readonly RemoteHit[], namespace: string) => void;
  /** Told about a failure or a timeout of the source (the retrieval goes on without it). */
  onError?: (error: unknown) => void;
}

/** A ranked hit that may come from the remote source. */
export interface MergedHit extends RankedHit {
  /** Set on records that came from the remote source only. */
  remote?: RemoteHit;
}

/**
 * Calls the source within its budget. Resolves undefined when it fails, says the
 * namespace has no remote side, or has not answered in time (the call is then aborted).
 * Never throws.
 */
export async function remoteWithin<T>(
  source: RemoteSource,
  call: (signal: AbortSignal) => Promise<T | undefined>,
): Promise<T | undefined> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${source.budgetMs} ms`));
      resolve(undefined);
    }, source.budgetMs);
  });
  const work = call(controller.signal).catch((error: unknown) => {
    source.onError?.(error);
    return undefined;
  });
  try {
    const result = await Promise.race([work, late]);
    if (result === undefined && controller.signal.aborted) {
      source.onError?.(controller.signal.reason);
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One ranking from local hits and remote hits: each side's scores are scaled by its best
 * (the two rankers' scales differ), remote hits below `minRelative` of their best are
 * dropped as noise, and a record both sides found counts once, as the local copy (the
 * same record_id is the same record). Ties go to the local record.
 */
export function mergeRemote(
  local: readonly RankedHit[],
  remote: readonly RemoteHit[],
  minRelative: number,
): MergedHit[] {
  const localTop = Math.max(0, ...local.map((hit) => hit.score));
  const remoteTop = Math.max(0, ...remote.map((hit) => hit.score));
  const ids = new Set(local.map((hit) => hit.record.record_id));
  const merged: Array<MergedHit & { scaled: number; side: number }> = local.map((hit) => ({
    ...hit,
    scaled: localTop > 0 ? hit.score / localTop : 0,
    side: 0,
  }));
  for (const hit of remote) {
    // A source that gives no scores (all 0) ranks its hits midway.
    const scaled = remoteTop > 0 ? hit.score / remoteTop : 0.5;
    if (scaled < minRelative || ids.has(hit.record.record_id)) continue;
    ids.add(hit.record.record_id);
    merged.push({ record: hit.record, score: hit.score, remote: hit, scaled, side: 1 });
  }
  merged.sort((a, b) => b.scaled - a.scaled || a.side - b.side);
  return merged.map(({ scaled: _scaled, side: _side, ...hit }) => hit);
}

/** The author a remote record is labelled with; none for the local member's own. */
export function authorLabel(hit: MergedHit, self: string | undefined): string | undefined {
  if (!hit.remote) return undefined;
  return hit.remote.author === self ? undefined : hit.remote.author;
}
