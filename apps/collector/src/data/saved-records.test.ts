import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import type { EventHead } from '@kiro-learn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSavedRecords } from './saved-records.js';

const NS = '/actor/dev/project/payments-api/';
const OTHER = '/actor/dev/project/notes/';
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function record(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    record_id: newRecordId(),
    namespace: NS,
    strategy: 'builtin',
    title: 'Asked',
    summary: 'Request: what is this\nNo tools were used.',
    facts: [],
    concepts: [],
    files_touched: [],
    observation_type: 'session_summary',
    source_event_ids: [newEventId()],
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A data dir with one file as gc writes it. */
function saved(records: MemoryRecord[]): { home: string; path: string } {
  const home = mkdtempSync(join(tmpdir(), 'kl-saved-'));
  homes.push(home);
  mkdirSync(join(home, 'gc'));
  const path = join(home, 'gc', '2026-11-25T10-00-00-000Z-question-only-records.jsonl');
  const lines = [
    {
      type: 'header',
      format: 'kiro-learn-export',
      version: 1,
      counts: { events: 0, records: records.length },
    },
    ...records.map((r) => ({ type: 'record', record: r })),
    { type: 'end', events: 0, records: records.length },
  ];
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return { home, path };
}

const noHeads = async () => [];
const ids = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.type === 'record')
    .map((line) => line.record.record_id);

describe('forgetSavedRecords', () => {
  it('drops the records a scope covers, by the database’s rules, and keeps the rest', async () => {
    const byId = record();
    const byEvent = record();
    const old = record({ created_at: '2025-01-01T00:00:00.000Z' });
    const other = record({ namespace: OTHER });
    const { home, path } = saved([byId, byEvent, old, other]);

    expect(
      await forgetSavedRecords(home, [{ record: byId.record_id }], noHeads, { dryRun: true }),
    ).toMatchObject([{ action: 'holds', counts: { records: 1 } }]);
    expect(ids(path)).toHaveLength(4);

    for (const scope of [
      { record: byId.record_id },
      { event: byEvent.source_event_ids[0]! },
      { before: '2025-06-01', namespace: NS },
    ]) {
      expect(await forgetSavedRecords(home, [scope], noHeads)).toMatchObject([
        {
          file: join('gc', '2026-11-25T10-00-00-000Z-question-only-records.jsonl'),
          action: 'rewritten',
        },
      ]);
    }
    expect(ids(path)).toEqual([other.record_id]);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].counts.records).toBe(1);
    expect(lines.at(-1)).toEqual({ type: 'end', events: 0, records: 1 });
    // A scope that covers nothing leaves the file as it is and does not list it.
    expect(await forgetSavedRecords(home, [{ namespace: NS }], noHeads)).toEqual([]);
  });

  it('a session covers the records made from its events; a file left empty is deleted', async () => {
    const inSession = record();
    const elsewhere = record();
    const { home, path } = saved([inSession, elsewhere]);
    const heads = async (asked: readonly string[]): Promise<EventHead[]> =>
      asked.map((eventId) => ({
        eventId,
        namespace: NS,
        sessionId: eventId === inSession.source_event_ids[0] ? 's-1' : 's-2',
        kind: 'prompt',
        validTime: '2026-11-01T10:00:00.000Z',
      }));
    await forgetSavedRecords(home, [{ session: 's-1' }], heads);
    expect(ids(path)).toEqual([elsewhere.record_id]);
    expect(await forgetSavedRecords(home, [{ all: true }], noHeads)).toMatchObject([
      { action: 'deleted', reason: 'every record in it was forgotten' },
    ]);
    expect(existsSync(path)).toBe(false);
  });
});
