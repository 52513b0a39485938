import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import type { Event } from '@kiro-learn/schema';
import { hookUlid } from './ulid.js';

/** Default cap of the pending spool file; the oldest events go first beyond it. */
export const SPOOL_MAX_BYTES = 16 * 1024 * 1024;
/** A replay lock older than this is from a process that died mid-replay. */
const STALE_LOCK_MS = 60_000;

/** What a delivery attempt of one spooled event came to. */
export type DeliveryOutcome = 'delivered' | 'rejected' | 'retry';

/** Totals of one replay. */
export interface DrainResult {
  /** Events the collector accepted (stored or recognised as duplicates). */
  delivered: number;
  /** Events refused for good (invalid) or unreadable lines: dropped. */
  rejected: number;
  /** Events still waiting in the spool. */
  remaining: number;
}

/** Limits of one replay, so a hook never spends long on a backlog. */
export interface DrainOptions {
  /** Stop after this many events. */
  maxEvents?: number;
  /** Stop once `Date.now()` passes this. */
  deadline?: number;
}

const CLAIM = '.claim.jsonl';
const SEGMENT = '.seg.jsonl';
const PENDING = 'pending.jsonl';
const spoolDir = (home: string) => join(home, 'spool');
const pendingFile = (home: string) => join(spoolDir(home), PENDING);
/** Written by earlier versions: one number. */
const droppedFile = (home: string) => join(spoolDir(home), 'dropped');
/** One line per drop, each the number of events dropped: appends never race. */
const droppedLog = (home: string) => join(spoolDir(home), 'dropped.log');

/**
 * Keeps an event the collector could not take: one JSON line appended (atomic for one
 * write) to `pending.jsonl`. The spool is bounded without rewriting anything: once
 * `pending.jsonl` holds an eighth of `maxBytes` it is renamed into a segment (a rename
 * never loses an append in flight), and while all files pass `maxBytes` the oldest
 * segment goes, its events counted in `dropped.log`. Concurrent hooks each do one append
 * and a directory listing; every event is kept or counted.
 */
export function spoolEvent(home: string, event: Event, maxBytes: number = SPOOL_MAX_BYTES): void {
  const line = `${JSON.stringify(event)}\n`;
  const dir = spoolDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  appendFileSync(pendingFile(home), line, { mode: 0o600 });
  let size = 0;
  try {
    size = statSync(pendingFile(home)).size;
  } catch {
    // another hook just rotated it
  }
  if (size >= Math.max(1, Math.floor(maxBytes / 8))) {
    try {
      renameSync(pendingFile(home), join(dir, `${nextName(home)}${SEGMENT}`));
    } catch {
      // another hook rotated it first
    }
  }
  const files = spoolFiles(home).map((file) => ({ file, size: sizeOf(file) }));
  let total = files.reduce((sum, f) => sum + f.size, 0);
  for (const { file, size: bytes } of files) {
    if (total <= maxBytes) break;
    if (!file.endsWith(SEGMENT)) continue; // claims are being replayed; pending is newest
    const doomed = `${file}.drop`;
    try {
      renameSync(file, doomed); // one hook wins each segment
    } catch {
      continue;
    }
    total -= bytes;
    const count = readLines(doomed).length;
    unlinkSync(doomed);
    if (count > 0) appendFileSync(droppedLog(home), `${count}\n`, { mode: 0o600 });
  }
}

/** How many events wait in the spool, and how many were dropped for space so far. */
export function spoolStatus(home: string): { pending: number; dropped: number } {
  let pending = 0;
  for (const file of spoolFiles(home)) pending += readLines(file).length;
  let dropped = 0;
  try {
    dropped = Number.parseInt(readFileSync(droppedFile(home), 'utf8'), 10) || 0;
  } catch {
    // nothing dropped by an earlier version
  }
  for (const count of readLines(droppedLog(home))) dropped += Number.parseInt(count, 10) || 0;
  return { pending, dropped };
}

/** True when anything waits in the spool: one directory read, cheap enough for every hook. */
export function hasSpooled(home: string): boolean {
  try {
    return readdirSync(spoolDir(home)).some((name) => name.endsWith('.jsonl'));
  } catch {
    return false;
  }
}

/**
 * Replays spooled events in the order they were spooled, one at a time, through `deliver`
 * (the shims POST them; the collector may call this at start-up with its own ingest). One
 * replayer at a time (a lock file); whatever is not delivered stays, in order, for the next.
 */
export async function drainSpool(
  home: string,
  deliver: (event: Event) => Promise<DeliveryOutcome>,
  options: DrainOptions = {},
): Promise<DrainResult> {
  const result: DrainResult = { delivered: 0, rejected: 0, remaining: 0 };
  const lock = join(spoolDir(home), 'lock');
  if (!hasSpooled(home) || !takeLock(lock)) {
    result.remaining = spoolStatus(home).pending;
    return result;
  }
  try {
    // Claimed batches are named by ULID, so they sort oldest first; new events keep
    // arriving in pending.jsonl meanwhile. Two claims within one millisecond would sort by
    // their random part: a name that does not sort after the last claim's extends it.
    try {
      renameSync(pendingFile(home), join(spoolDir(home), `${nextName(home)}${CLAIM}`));
    } catch {
      // nothing new pending
    }
    const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
    let stopped = false;
    for (const file of spoolFiles(home).filter((f) => basename(f) !== PENDING)) {
      const lines = readLines(file);
      let index = 0;
      for (; index < lines.length && !stopped; index++) {
        if (
          result.delivered + result.rejected >= maxEvents ||
          (options.deadline !== undefined && Date.now() > options.deadline)
        ) {
          stopped = true;
          break;
        }
        let outcome: DeliveryOutcome;
        try {
          outcome = await deliver(JSON.parse(lines[index]!) as Event);
        } catch (error) {
          outcome = error instanceof SyntaxError ? 'rejected' : 'retry';
        }
        if (outcome === 'retry') {
          stopped = true;
          break;
        }
        result[outcome === 'delivered' ? 'delivered' : 'rejected']++;
      }
      const rest = lines.slice(index);
      try {
        if (rest.length === 0) unlinkSync(file);
        else writeAtomic(file, rest.map((line) => `${line}\n`).join(''));
      } catch {
        // dropped for space meanwhile: its events are counted there
      }
      if (stopped) break;
    }
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  }
  result.remaining = spoolStatus(home).pending;
  return result;
}

/**
 * The name of a new segment or claim: a ULID, so they sort oldest first. Two within one
 * millisecond would sort by their random part: a name that does not sort after the last
 * one extends it.
 */
function nextName(home: string): string {
  const last = spoolFiles(home)
    .map((file) => basename(file))
    .filter((name) => name !== PENDING)
    .map((name) => name.slice(0, name.indexOf('.')))
    .pop();
  const ulid = hookUlid();
  return last !== undefined && ulid <= last ? `${last}0` : ulid;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function spoolFiles(home: string): string[] {
  try {
    const names = readdirSync(spoolDir(home)).filter((name) => name.endsWith('.jsonl'));
    // Segments and claims (ULID names) are older than whatever is pending now.
    names.sort((a, b) => (a === PENDING ? 1 : b === PENDING ? -1 : a < b ? -1 : 1));
    return names.map((name) => join(spoolDir(home), name));
  } catch {
    return [];
  }
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      return true;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
        unlinkSync(lock);
      } catch {
        // the holder just finished: try again
      }
    }
  }
  return false;
}

function writeAtomic(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
