import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Event, type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { afterEach } from 'vitest';
import {
  type CreateBufferInput,
  createBuffer,
  type ExtractBatch,
  type ExtractionRun,
  type PendingBuffer,
} from '../src/index.js';

export const NS = '/actor/dev/project/demo/';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh SQLite database in a temp dir, closed and removed after the test. */
export async function tempStorage(): Promise<{
  storage: SqliteStorage;
  path: string;
  dir: string;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'kl-buffer-'));
  const path = join(dir, 'kiro-learn.db');
  const storage = await openSqliteStorage({ path });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => storage.close().catch(() => {}));
  return { storage, path, dir };
}

/** A buffer over a fresh temporary store, drained and closed after the test. */
export async function tempBuffer(
  input: Omit<CreateBufferInput, 'storage'>,
): Promise<{ storage: SqliteStorage; buffer: PendingBuffer }> {
  const { storage } = await tempStorage();
  return { storage, buffer: track(createBuffer({ storage, ...input })) };
}

/** Drains the buffer after the test (before storage closes). */
export function track<T extends PendingBuffer>(buffer: T): T {
  cleanups.push(() => buffer.drain());
  return buffer;
}

export function event(kind: Event['kind'] = 'note', content = 'x', namespace = NS): Event {
  return {
    event_id: newEventId(),
    session_id: 's1',
    actor_id: 'dev',
    namespace,
    schema_version: 1,
    kind,
    body: { type: 'text', content },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1', client_id: 'test' },
  };
}

/** What the collector does per event: store with a pending entry, then tell the buffer. */
export async function ingest(
  storage: SqliteStorage,
  buffer: PendingBuffer,
  e: Event,
): Promise<Event> {
  const { stored } = await storage.putEvent(e, { pending: true });
  if (stored) buffer.notify(e);
  return e;
}

/** Resolves with the next `count` runs the buffer reports. */
export function runs(buffer: PendingBuffer, count = 1): Promise<ExtractionRun[]> {
  return new Promise((resolve) => {
    const seen: ExtractionRun[] = [];
    const stop = buffer.onExtraction((run) => {
      seen.push(run);
      if (seen.length === count) {
        stop();
        resolve(seen);
      }
    });
  });
}

/** A promise and its resolve function, to hold an extraction open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export async function pendingIds(storage: SqliteStorage, namespace = NS): Promise<string[]> {
  return (await storage.listPending(namespace)).map((entry) => entry.eventId);
}

/** A tool use in Kiro CLI's shape (`{tool_name, tool_input, tool_response}`). */
export function tool(name: string, input: Record<string, unknown>, response: unknown): Event {
  return {
    ...event('tool_use'),
    body: { type: 'json', data: { tool_name: name, tool_input: input, tool_response: response } },
  };
}

/** A file read whose output is `content`. */
export const read = (path: string, content: string) =>
  tool('fs_read', { path }, { success: true, result: [content] });

/** A shell command with its exit status and output. */
export const bash = (command: string, exit: number, stdout = '') =>
  tool(
    'execute_bash',
    { command },
    { success: exit === 0, result: [{ exit_status: String(exit), stdout }] },
  );

/** The one record a test extractor makes of a batch: it cites every event of the batch. */
export function batchRecord(batch: ExtractBatch, namespace = batch.namespace): MemoryRecord {
  return {
    record_id: newRecordId(),
    namespace,
    strategy: 'test',
    title: `batch of ${batch.events.length}`,
    summary: batch.events.map((e) => e.kind).join(' '),
    facts: [],
    concepts: [],
    files_touched: [],
    observation_type: 'session_summary',
    source_event_ids: batch.events.map((e) => e.event_id),
    created_at: new Date().toISOString(),
  };
}
