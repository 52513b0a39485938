// What retrieval holds back, on a real SQLite store: the prompt coming back as memory,
// records that say nothing, context for prompts with no subject, what the agent of the
// session still holds (its own turns until a compaction, records shown for the subject).
import { type Event, newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { createRetriever } from '../src/index.js';
import { NS, openTemp, record } from './helpers.js';

function event(overrides: Partial<Event> & Pick<Event, 'session_id' | 'kind'>): Event {
  return {
    event_id: newEventId(),
    actor_id: 'alice',
    namespace: NS,
    schema_version: 1,
    body: { type: 'text', content: '' },
    valid_time: new Date().toISOString(),
    source: { surface: 'claude-code', version: '1', client_id: 'c' },
    ...overrides,
  };
}

const pool = () =>
  record({
    title: 'Postgres pool exhausted under load',
    summary: 'Raised the pool from 10 to 40 connections; PGBOUNCER in transaction mode.',
    facts: ['DATABASE_POOL_MAX=40 in .env.production'],
    files_touched: ['src/db/pool.ts'],
    observation_type: 'error',
  });

describe('never the prompt itself', () => {
  it('leaves out a record that only restates the prompt, whatever wrote it', async () => {
    const storage = await openTemp();
    const answer = pool();
    // The built-in extractor before "What gets stored", and an LLM's rewording.
    const builtin = record({
      title: 'why is the postgres pool exhausted',
      summary: 'Request: why is the postgres pool exhausted under load?\nNo tools were used.',
      observation_type: 'session_summary',
    });
    const llm = record({
      title: 'User asked about the exhausted Postgres pool',
      summary: 'The user asked why the Postgres pool is exhausted under load.',
      observation_type: 'session_summary',
    });
    for (const r of [answer, builtin, llm]) await storage.putRecord(r);
    // A first retrieval is cold (well over the 500 ms budget on a loaded machine).
    const retriever = createRetriever({ storage, budgetMs: 10_000 });
    const prompt = 'why is the postgres pool exhausted under load?';
    expect((await retriever.retrieve({ namespace: NS, prompt })).records).toEqual([
      answer.record_id,
    ]);
    // A near-identical wording, and the search the CLI and MCP tools use.
    expect(
      (await retriever.retrieve({ namespace: NS, prompt: 'postgres pool exhausted again' }))
        .records,
    ).toEqual([answer.record_id]);
    expect(
      (await retriever.search({ namespace: NS, query: prompt })).map((hit) => hit.record.record_id),
    ).toEqual([answer.record_id]);
  });

  it('keeps a record of the same question that carries its answer', async () => {
    const storage = await openTemp();
    const answered = record({
      title: 'what port does the collector listen on',
      summary:
        'Request: what port does the collector listen on?\nOutcome: 21100 by default; KIRO_LEARN_PORT overrides it.',
      observation_type: 'session_summary',
    });
    await storage.putRecord(answered);
    const result = await createRetriever({ storage }).retrieve({
      namespace: NS,
      prompt: 'what port does the collector listen on?',
    });
    expect(result.records).toEqual([answered.record_id]);
  });

  it('never injects a record that says nothing', async () => {
    const storage = await openTemp();
    await storage.putRecord(
      record({ title: 'continue', summary: 'Request: continue\nNo tools were used.' }),
    );
    await storage.putRecord(record({ title: 'Done.', summary: 'Done.' }));
    const retriever = createRetriever({ storage });
    for (const prompt of ['continue with the pool', 'done with the pool?']) {
      expect((await retriever.retrieve({ namespace: NS, prompt })).records).toEqual([]);
    }
  });
});

describe('memory restated is not memory', () => {
  const earlier = new Date(Date.now() - 86_400_000).toISOString();
  // What the built-in extractor makes of a turn where the agent answered from its context.
  const restatement = (outcome: string) =>
    record({
      title: 'why is the postgres pool exhausted under load — Postgres pool exhausted under load',
      summary: `Request: why is the postgres pool exhausted under load?\nOutcome: ${outcome}`,
      observation_type: 'session_summary',
    });

  it('gives the record an answer restated its place, asked again or asked otherwise', async () => {
    const storage = await openTemp();
    const answer = { ...pool(), created_at: earlier };
    const again = restatement(
      'Postgres pool exhausted under load. Raised the pool from 10 to 40 connections.',
    );
    for (const r of [answer, again]) await storage.putRecord(r);
    const retriever = createRetriever({ storage });
    for (const prompt of [
      'why is the postgres pool exhausted under load?',
      'how many connections does the pool have',
    ]) {
      expect((await retriever.retrieve({ namespace: NS, prompt })).records).toEqual([
        answer.record_id,
      ]);
      expect(
        (await retriever.search({ namespace: NS, query: prompt })).map((h) => h.record.record_id),
      ).toEqual([answer.record_id]);
    }
  });

  it("reads a title's request and its answer apart: no word pair joins the two", async () => {
    const storage = await openTemp();
    const answer = { ...pool(), created_at: earlier };
    // Another prompt's turn, answered from this record: the pair "slow postgres", across
    // the title's ` — `, is no news.
    const other = record({
      title: 'the checkout got slow — Postgres pool exhausted under load',
      summary:
        'Request: the checkout got slow\nOutcome: Postgres pool exhausted under load. Raised the pool from 10 to 40 connections.',
      observation_type: 'session_summary',
    });
    for (const r of [answer, other]) await storage.putRecord(r);
    expect(
      (
        await createRetriever({ storage }).retrieve({
          namespace: NS,
          prompt: 'how many connections does the pool have',
        })
      ).records,
    ).toEqual([answer.record_id]);
  });

  it('keeps a later answer that says something new: a changed value, a file', async () => {
    const storage = await openTemp();
    const answer = { ...pool(), created_at: earlier };
    const changed = restatement('Postgres pool exhausted under load; raised it to 60 connections.');
    const read = {
      ...restatement('Postgres pool exhausted under load. Raised the pool from 10 to 40.'),
      files_touched: ['src/db/pool.ts'],
    };
    for (const r of [answer, changed, read]) await storage.putRecord(r);
    const result = await createRetriever({ storage }).retrieve({
      namespace: NS,
      prompt: 'why is the postgres pool exhausted under load?',
    });
    expect(new Set(result.records)).toEqual(
      new Set([answer.record_id, changed.record_id, read.record_id]),
    );
  });

  it("never injects another prompt's question-only record", async () => {
    const storage = await openTemp();
    const answer = pool();
    const asked = record({
      title: 'deploy the postgres pool settings to staging',
      summary: 'Request: deploy the postgres pool settings to staging\nNo tools were used.',
      observation_type: 'session_summary',
    });
    for (const r of [answer, asked]) await storage.putRecord(r);
    const result = await createRetriever({ storage }).retrieve({
      namespace: NS,
      prompt: 'what are the postgres pool settings',
    });
    expect(result.records).toEqual([answer.record_id]);
  });
});

describe('context in proportion to the prompt', () => {
  it('gives a prompt with no subject of its own nothing', async () => {
    const storage = await openTemp();
    await storage.putRecord(pool());
    await storage.putRecord(
      record({
        title: 'Continue the import after a crash',
        summary: 'Imports resume from the last line.',
      }),
    );
    await storage.putRecord(
      record({ title: 'Option 2 of the retry policy', summary: 'Two retries, 1 s apart.' }),
    );
    const retriever = createRetriever({ storage });
    for (const prompt of [
      'yes',
      '2',
      'continue',
      'ok do it',
      'yes please, go ahead with option 2',
    ]) {
      expect((await retriever.retrieve({ namespace: NS, prompt })).context, prompt).toBe('');
    }
    expect(
      (await retriever.retrieve({ namespace: NS, prompt: 'continue the import' })).records,
    ).toHaveLength(1);
  });

  it('shares the budget: two long turn summaries leave room for the records after them', async () => {
    const storage = await openTemp();
    // Two earlier sessions' first turns, each a summary with eighty facts (what a long
    // turn's built-in record holds), the newest first in the ranking, then a shorter record
    // of an older session on the files the new session will touch.
    const long = (bead: string, minutes: number) =>
      record({
        title: `Work on bead ${bead} — edited the live views`,
        summary: `Request: Work on bead ${bead}. Run bd show ${bead} to see the issue details and bd ready to find available subtasks.`,
        facts: Array.from(
          { length: 80 },
          (_, i) => `Checked handler ${i} in module ${i} against fixture ${i} after change ${i}`,
        ),
        files_touched: ['lib/web/live/session_live.ex'],
        created_at: new Date(Date.now() - minutes * 60_000).toISOString(),
      });
    const hooks = record({
      title: 'Work on bead spotter-4te — the hook controllers now trace every request',
      summary: `Request: Work on bead spotter-4te. Run bd show spotter-4te to see the issue details and bd ready to find available subtasks.\nOutcome: the hook controllers open a span per request.`,
      facts: ['Modified: lib/web/controllers/hooks_controller.ex'],
      files_touched: ['lib/web/controllers/hooks_controller.ex'],
      created_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    for (const r of [long('spotter-dov', 10), long('spotter-fum', 20), hooks]) {
      await storage.putRecord(r);
    }
    const retriever = createRetriever({ storage, budgetMs: 10_000 });
    const got = await retriever.retrieve({
      namespace: NS,
      prompt:
        'Work on bead spotter-a0y. Run bd show spotter-a0y to see the issue details and bd ready to find available subtasks. Start with the first ready task.',
      sessionId: 'new',
    });
    expect(got.records).toContain(hooks.record_id);
    expect(got.records).toHaveLength(3);
    expect(got.context.length).toBeLessThanOrEqual(1500 * 4);
    expect(got.context).toContain('- Checked handler 0 in module 0');
  });
});

describe('nothing the agent still holds', () => {
  it("leaves out the session's own records until a compaction, then gives them back", async () => {
    const storage = await openTemp();
    const earlier = event({ session_id: 'old', kind: 'prompt' });
    const mine = event({ session_id: 'now', kind: 'prompt' });
    for (const e of [earlier, mine]) await storage.putEvent(e);
    const fromBefore = { ...pool(), source_event_ids: [earlier.event_id] };
    const fromThisSession = record({
      title: 'Postgres pool raised again to 60',
      summary: 'Forty was not enough at the Monday peak; sixty holds with room to spare.',
      facts: ['DATABASE_POOL_MAX=60'],
      source_event_ids: [mine.event_id],
    });
    await storage.putRecord(fromBefore);
    await storage.putRecord(fromThisSession);
    const retriever = createRetriever({ storage });
    const ask = (sessionId: string, prompt = 'postgres pool exhausted') =>
      retriever.retrieve({ namespace: NS, prompt, sessionId });

    expect((await ask('now')).records).toEqual([fromBefore.record_id]);
    // Another session may have it: it is memory there.
    expect((await ask('other')).records).toContain(fromThisSession.record_id);

    // The agent compacts its context: what came before is no longer in its window, and the
    // session start that follows may bring it back.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      (await retriever.sessionStart({ namespace: NS, sessionId: 'now', reason: 'resume' })).records,
    ).not.toContain(fromThisSession.record_id);
    expect(
      (await retriever.sessionStart({ namespace: NS, sessionId: 'now', reason: 'compact' }))
        .records,
    ).toContain(fromThisSession.record_id);
  });

  it("gives them back after any agent's compaction hook, live and after a restart", async () => {
    const storage = await openTemp();
    const turn = event({
      session_id: 's',
      kind: 'prompt',
      valid_time: new Date(Date.now() - 60_000).toISOString(),
    });
    await storage.putEvent(turn);
    const held = { ...pool(), source_event_ids: [turn.event_id] };
    await storage.putRecord(held);
    const retriever = createRetriever({ storage });
    const ask = (r: typeof retriever) =>
      r.retrieve({ namespace: NS, prompt: 'postgres pool', sessionId: 's' });
    expect((await ask(retriever)).records).toEqual([]);
    // Gemini CLI's PreCompress (Codex, Cursor, Cline, Copilot, OpenCode alike): a note, no
    // session start; the collector tells the live retriever.
    await storage.putEvent(
      event({
        session_id: 's',
        kind: 'note',
        body: { type: 'json', data: { hook: 'PreCompress', source: 'compact' } },
      }),
    );
    await retriever.windowReset({ namespace: NS, sessionId: 's' });
    expect((await ask(retriever)).records).toEqual([held.record_id]);
    expect((await ask(createRetriever({ storage }))).records).toEqual([held.record_id]);
  });

  it("brings an earlier session's record on the files this session works on, for a prompt that names none", async () => {
    const storage = await openTemp();
    const earlier = event({ session_id: 'monday', kind: 'prompt' });
    const mine = event({ session_id: 'today', kind: 'prompt' });
    for (const e of [earlier, mine]) await storage.putEvent(e);
    // Monday's session learned something about the pool and its retries (two files of
    // today's working set: clear of the noise floor the migration note's own words set).
    const monday = {
      ...pool(),
      files_touched: ['src/db/pool.ts', 'src/db/retry.ts'],
      source_event_ids: [earlier.event_id],
    };
    // Today's first turn read and changed that file (the agent holds this record).
    const today = record({
      title: 'Tuned the retry loop',
      summary: 'Retries back off exponentially now.',
      files_touched: ['src/db/pool.ts', 'src/db/retry.ts'],
      source_event_ids: [mine.event_id],
    });
    const unrelated = record({
      title: 'Next steps for the migration script',
      summary: 'The next step is the backfill of the audit log.',
      files_touched: ['scripts/migrate.ts'],
    });
    for (const r of [monday, today, unrelated]) await storage.putRecord(r);
    const retriever = createRetriever({ storage, budgetMs: 10_000 });
    const prompt = 'go on with the next step';
    // Without a session (or in another one) the prompt's words find only the migration note.
    expect((await retriever.retrieve({ namespace: NS, prompt })).records).toEqual([
      unrelated.record_id,
    ]);
    const got = await retriever.retrieve({ namespace: NS, prompt, sessionId: 'today' });
    expect(got.records).toContain(monday.record_id);
    expect(got.records).not.toContain(today.record_id);
  });

  it('reads a compaction from the stored session-start note after a restart', async () => {
    const storage = await openTemp();
    const turn = event({
      session_id: 's',
      kind: 'prompt',
      valid_time: new Date(Date.now() - 60_000).toISOString(),
    });
    await storage.putEvent(turn);
    const held = { ...pool(), source_event_ids: [turn.event_id] };
    await storage.putRecord(held);
    expect(
      (
        await createRetriever({ storage }).retrieve({
          namespace: NS,
          prompt: 'postgres pool',
          sessionId: 's',
        })
      ).records,
    ).toEqual([]);
    await storage.putEvent(
      event({
        session_id: 's',
        kind: 'note',
        body: { type: 'json', data: { hook: 'SessionStart', source: 'compact' } },
      }),
    );
    const restarted = createRetriever({ storage });
    expect(
      (await restarted.retrieve({ namespace: NS, prompt: 'postgres pool', sessionId: 's' }))
        .records,
    ).toEqual([held.record_id]);
  });

  it('shows a record again for a prompt on another subject, not for the same one', async () => {
    const storage = await openTemp();
    const r = pool();
    await storage.putRecord(r);
    const retriever = createRetriever({ storage });
    const ask = (prompt: string) => retriever.retrieve({ namespace: NS, prompt, sessionId: 's' });

    expect((await ask('postgres pool exhausted under load')).records).toEqual([r.record_id]);
    expect((await ask('the postgres pool is exhausted again')).records).toEqual([]);
    // Another subject that this record answers too: a file it touched.
    expect((await ask('what does src/db/pool.ts configure for retries?')).records).toEqual([
      r.record_id,
    ]);
    // And after a restart the log says the same.
    await retriever.flush();
    const restarted = createRetriever({ storage });
    expect(
      (
        await restarted.retrieve({
          namespace: NS,
          prompt: 'postgres pool exhausted',
          sessionId: 's',
        })
      ).records,
    ).toEqual([]);
  });
});

describe('search narrowed to a type or a file', () => {
  it('ranks like retrieval and keeps only matching records', async () => {
    const storage = await openTemp();
    const error = pool();
    const note = record({
      title: 'Postgres pool sizing notes',
      summary: 'Pool size is connections per pod times pods, under max_connections.',
      files_touched: ['docs/db.md'],
      observation_type: 'discovery',
    });
    for (const r of [error, note]) await storage.putRecord(r);
    const retriever = createRetriever({ storage });
    const ids = async (request: Parameters<typeof retriever.search>[0]) =>
      (await retriever.search(request)).map((hit) => hit.record.record_id);
    expect(await ids({ namespace: NS, query: 'postgres pool' })).toHaveLength(2);
    expect(await ids({ namespace: NS, query: 'postgres pool', type: 'error' })).toEqual([
      error.record_id,
    ]);
    expect(await ids({ namespace: NS, query: 'postgres pool', file: 'db.md' })).toEqual([
      note.record_id,
    ]);
  });
});

describe('the newest of a chain', () => {
  it('puts the record that replaced a fact above it, and says so on the old one', async () => {
    const storage = await openTemp();
    const redis = record({
      title: 'Job queue runs on Redis',
      summary: 'Background jobs go through a Redis list with BRPOPLPUSH; workers poll it.',
      files_touched: ['src/jobs/queue.ts'],
      observation_type: 'decision',
      created_at: '2026-09-01T10:00:00.000Z',
    });
    const sqs = record({
      title: 'Moved background work to SQS',
      summary: 'Workers now long-poll an SQS queue; visibility timeout 120 s.',
      files_touched: ['src/jobs/sqs.ts'],
      observation_type: 'decision',
      created_at: '2026-10-02T10:00:00.000Z',
    });
    for (const r of [redis, sqs]) await storage.putRecord(r);
    await storage.supersedeRecord({
      recordId: redis.record_id,
      supersededBy: sqs.record_id,
      at: '2026-10-02T10:00:00.000Z',
    });
    const retriever = createRetriever({ storage });

    // The prompt's words are the old record's; the new one shares none of them.
    const now = await retriever.retrieve({
      namespace: NS,
      prompt: 'how does the redis job queue work',
    });
    expect(now.records).toEqual([sqs.record_id, redis.record_id]);
    expect(now.context).toContain(
      `### Job queue runs on Redis\n\nSuperseded on 2026-10-02 by "Moved background work to SQS".\n`,
    );
    const search = await retriever.search({ namespace: NS, query: 'redis job queue' });
    expect(search.map((hit) => hit.record.record_id)).toEqual([sqs.record_id, redis.record_id]);

    // Asked how it was, the old record keeps its place.
    const before = await retriever.retrieve({
      namespace: NS,
      prompt: 'what did the job queue run on before, redis?',
    });
    expect(before.records[0]).toBe(redis.record_id);
  });
});
