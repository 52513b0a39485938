/**
 * A prompt whose event cannot be stored is answered with an error (the hook keeps the event
 * in its spool) and its agent gets no context. Its retrieval runs while the event is
 * stored, so it has found its records by then: none of them may count as shown to the
 * session, or the session's later prompts leave out records its agent never saw.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetriever } from '@kiro-learn/retrieval';
import type { Event } from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Collector, createCollector } from '../src/app.js';
import { normalizeSettings } from '../src/config/settings.js';
import { makeEvent, makeRecord, NS, send } from './helpers.js';

const QUESTION = 'why does the stripe webhook signature check fail?';

let home: string;
let running: { collector: Collector; storage: SqliteStorage; port: number } | undefined;

/** A collector (no embedding model) over the SQLite file in `home`, kept or new. */
async function start() {
  const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  const settings = normalizeSettings({ port: 0, semantic: { enabled: false } }, home);
  const collector = createCollector({ storage, settings });
  const { port } = await collector.listen();
  running = { collector, storage, port };
  return running;
}

async function stop() {
  await running?.collector.close();
  running = undefined;
}

afterEach(async () => {
  await stop();
  rmSync(home, { recursive: true, force: true });
});

/** The record a prompt about the Stripe webhook gets, stored through the API. */
async function storeRecord(port: number) {
  const record = makeRecord();
  expect((await send(port, 'POST', '/v1/memories', { body: record })).status).toBe(200);
  return record;
}

const prompt = (sessionId: string, content = QUESTION): Event =>
  makeEvent({ kind: 'prompt', session_id: sessionId, body: { type: 'text', content } });

/**
 * Posts `event` as the prompt hook does, its store failing. The failure is a real one of
 * the real SQLite file, in the store's own transaction and error path: a trigger aborts
 * the insert of this one event (as a full disk or a damaged page would), and nothing else,
 * so the retrieval log keeps working and shows what a retrieval logged.
 */
async function postFailing(storage: SqliteStorage, port: number, event: Event) {
  await sql
    .raw(
      `CREATE TRIGGER fail_store BEFORE INSERT ON events WHEN NEW.event_id = '${event.event_id}'
       BEGIN SELECT RAISE(ABORT, 'the store failed'); END`,
    )
    .execute(storage.db);
  try {
    return await send(port, 'POST', '/v1/events?retrieve=true&hook=1', { body: event });
  } finally {
    await sql.raw('DROP TRIGGER fail_store').execute(storage.db);
  }
}

const ask = async (port: number, event: Event) =>
  (await send(port, 'POST', '/v1/events?retrieve=true&hook=1', { body: event })).json;

describe('a prompt whose event cannot be stored', () => {
  it("answers an error, and the session's next prompt still gets the record it would have shown", async () => {
    home = mkdtempSync(join(tmpdir(), 'kl-failed-store-'));
    const { storage, port } = await start();
    const record = await storeRecord(port);

    const failed = await postFailing(storage, port, prompt('session-a'));
    expect(failed.status).toBe(500);
    expect(failed.json.retrieval).toBeUndefined();

    const next = await ask(port, prompt('session-a'));
    expect(next.stored).toBe(true);
    expect(next.retrieval.records).toEqual([record.record_id]);
    // What the agent did get counts as shown: a later prompt on the subject leaves it out.
    const again = prompt('session-a', 'the stripe webhook signature check fails again');
    expect((await ask(port, again)).retrieval.records).toEqual([]);
  });

  it("logs no retrieval for it: after a restart the session's next prompt gets the record too", async () => {
    home = mkdtempSync(join(tmpdir(), 'kl-failed-store-'));
    const first = await start();
    const record = await storeRecord(first.port);
    const lost = prompt('session-b');
    expect((await postFailing(first.storage, first.port, lost)).status).toBe(500);
    await stop(); // writes every retrieval log line still queued

    const { port } = await start();
    const log = await send(port, 'GET', `/v1/retrievals?namespace=${encodeURIComponent(NS)}`);
    expect(log.json.items.map((entry: { eventId?: string }) => entry.eventId)).not.toContain(
      lost.event_id,
    );
    expect((await ask(port, prompt('session-b'))).retrieval.records).toEqual([record.record_id]);
  });
});

describe('a prompt answered past its budget', () => {
  it('goes without context, and the session’s next prompt still gets the record', async () => {
    home = mkdtempSync(join(tmpdir(), 'kl-late-retrieval-'));
    const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
    // The collector's own retriever finds the record; the first prompt's retrieval is then
    // held until that prompt has been answered (past the budget, with no context), as a
    // stalled process would hold it. A budget a loaded machine meets for the next prompt.
    const retriever = createRetriever({ storage, budgetMs: 60_000 });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    const collector = createCollector({
      storage,
      settings: normalizeSettings(
        { port: 0, semantic: { enabled: false }, retrieval: { budgetMs: 4000 } },
        home,
      ),
      retrieve: async (request) => {
        const hold = first;
        first = false;
        const outcome = await retriever.retrieve(request);
        if (hold) await held;
        return outcome;
      },
    });
    const { port } = await collector.listen();
    try {
      const record = await storeRecord(port);
      const late = await ask(port, prompt('sess-late'));
      expect(late.retrieval.records).toEqual([]);
      // What the held retrieval found must not count as shown once it finishes.
      release();
      await retriever.flush();
      const next = await ask(
        port,
        prompt('sess-late', 'the stripe webhook signature check fails again'),
      );
      expect(next.retrieval.records).toContain(record.record_id);
    } finally {
      release();
      await collector.close();
      await retriever.flush();
      await storage.close();
    }
  });
});
