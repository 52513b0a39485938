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
const spoolDir = (home: string) => join(home, 'spool');
const pendingFile = (home: string) => join(spoolDir(home), 'pending.jsonl');
const droppedFile = (home: string) => join(spoolDir(home), 'dropped');

/**
 * Keeps an event the collector could not take: one JSON line appended (atomic for one
 * write), the oldest lines dropped (and counted) when the file would pass `maxBytes`.
 */
export function spoolEvent(home: string, event: Event, maxBytes: number = SPOOL_MAX_BYTES): void {
  const line = `${JSON.stringify(event)}\n`;
  mkdirSync(spoolDir(home), { recursive: true, mode: 0o700 });
  const file = pendingFile(home);
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // first spooled event
  }
  if (size + Buffer.byteLength(line) <= maxBytes) {
    appendFileSync(file, line, { mode: 0o600 });
    return;
  }
  const lines = size > 0 ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  lines.push(line.slice(0, -1));
  let total = lines.reduce((sum, kept) => sum + Buffer.byteLength(kept) + 1, 0);
  let dropped = 0;
  while (total > maxBytes && lines.length > 0) {
    total -= Buffer.byteLength(lines.shift()!) + 1;
    dropped++;
  }
  writeAtomic(file, lines.map((kept) => `${kept}\n`).join(''));
  writeFileSync(droppedFile(home), String(spoolStatus(home).dropped + dropped));
}

/** How many events wait in the spool, and how many were dropped for space so far. */
export function spoolStatus(home: string): { pending: number; dropped: number } {
  let pending = 0;
  for (const file of spoolFiles(home)) pending += readLines(file).length;
  let dropped = 0;
  try {
    dropped = Number.parseInt(readFileSync(droppedFile(home), 'utf8'), 10) || 0;
  } catch {
    // nothing dropped
  }
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
    const last = spoolFiles(home)
      .filter((f) => f.endsWith(CLAIM))
      .map((f) => basename(f, CLAIM))
      .pop();
    const ulid = hookUlid();
    const name = last !== undefined && ulid <= last ? `${last}0` : ulid;
    try {
      renameSync(pendingFile(home), join(spoolDir(home), `${name}${CLAIM}`));
    } catch {
      // nothing new pending
    }
    const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
    let stopped = false;
    for (const file of spoolFiles(home).filter((f) => f.endsWith(CLAIM))) {
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
      if (rest.length === 0) unlinkSync(file);
      else writeAtomic(file, rest.map((line) => `${line}\n`).join(''));
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

function spoolFiles(home: string): string[] {
  try {
    const names = readdirSync(spoolDir(home)).filter((name) => name.endsWith('.jsonl'));
    // Claims (ULID names) are older than whatever is pending now.
    names.sort((a, b) => (a === 'pending.jsonl' ? 1 : b === 'pending.jsonl' ? -1 : a < b ? -1 : 1));
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
