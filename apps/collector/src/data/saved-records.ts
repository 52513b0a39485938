// The records kiro-learn saved to files in the data dir before dropping them (gc saves the
// question-only records to gc/*.jsonl, importable) are copies it made, like the backups: a
// forget reaches them too, by the same rules as the database's records.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryRecord } from '@kiro-learn/schema';
import type { EventHead, ForgetScope } from '@kiro-learn/storage';
import type { CopyForgotten } from './backups.js';

/** Where gc saves the records it drops, relative to the data dir. */
export const SAVED_RECORDS_DIR = 'gc';

interface Line {
  text: string;
  json?: { type?: unknown; record?: MemoryRecord; counts?: { records?: number } };
}

/**
 * Whether `scopes` cover a saved record: as in the database, a record goes with the events
 * it was made from (`heads`: their session and namespace, looked up before the forget).
 */
function covered(
  record: MemoryRecord,
  scopes: readonly ForgetScope[],
  heads: ReadonlyMap<string, EventHead>,
): boolean {
  return scopes.some((scope) => {
    if ('all' in scope) return true;
    if ('record' in scope) return record.record_id === scope.record;
    if ('event' in scope) return record.source_event_ids.includes(scope.event);
    const ns = scope.namespace === undefined || record.namespace === scope.namespace;
    if ('session' in scope) {
      return (
        ns &&
        record.source_event_ids.some((id) => {
          const head = heads.get(id);
          return head?.sessionId === scope.session && head.namespace === record.namespace;
        })
      );
    }
    if ('before' in scope) return ns && record.created_at < new Date(scope.before).toISOString();
    return ns;
  });
}

function files(home: string): string[] {
  try {
    return readdirSync(join(home, SAVED_RECORDS_DIR))
      .filter((name) => name.endsWith('.jsonl'))
      .sort();
  } catch {
    return [];
  }
}

const parse = (text: string): Line => {
  try {
    return { text, json: JSON.parse(text) as Line['json'] };
  } catch {
    return { text };
  }
};

/**
 * Drops the saved records `scopes` cover from every file gc wrote (a file left with none is
 * deleted); with `dryRun`, only lists the files that hold some. `heads` gives the session
 * and namespace of the events the records were made from (gc keeps those events).
 */
export async function forgetSavedRecords(
  home: string,
  scopes: readonly ForgetScope[],
  heads: (eventIds: readonly string[]) => Promise<EventHead[]>,
  options: { dryRun?: boolean } = {},
): Promise<CopyForgotten[]> {
  const out: CopyForgotten[] = [];
  const needHeads = scopes.some((scope) => 'session' in scope);
  for (const name of files(home)) {
    const file = join(SAVED_RECORDS_DIR, name);
    const path = join(home, file);
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((text) => text !== '')
      .map(parse);
    const records = lines.flatMap((line) =>
      line.json?.type === 'record' && line.json.record ? [line.json.record] : [],
    );
    const known = new Map<string, EventHead>();
    if (needHeads) {
      const ids = [...new Set(records.flatMap((r) => r.source_event_ids ?? []))];
      for (const head of await heads(ids)) known.set(head.eventId, head);
    }
    const gone = new Set(records.filter((r) => covered(r, scopes, known)).map((r) => r.record_id));
    if (gone.size === 0) continue;
    const counts = { events: 0, records: gone.size, pending: 0, logs: 0 };
    const left = records.length - gone.size;
    if (options.dryRun) {
      out.push({ file, action: 'holds', counts });
      continue;
    }
    if (left === 0) {
      rmSync(path, { force: true });
      out.push({ file, action: 'deleted', counts, reason: 'every record in it was forgotten' });
      continue;
    }
    const kept = lines
      .filter((line) => !(line.json?.record && gone.has(line.json.record.record_id)))
      .map((line) => {
        // The header's and the end line's counts say what the file now holds.
        if (line.json?.type === 'header' && line.json.counts)
          return JSON.stringify({ ...line.json, counts: { ...line.json.counts, records: left } });
        if (line.json?.type === 'end') return JSON.stringify({ ...line.json, records: left });
        return line.text;
      });
    writeFileSync(`${path}.forget`, `${kept.join('\n')}\n`, { mode: 0o600 });
    renameSync(`${path}.forget`, path);
    out.push({ file, action: 'rewritten', counts });
  }
  return out;
}
