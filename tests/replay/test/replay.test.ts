// Public Claude Code sessions (committed fixtures, sources.json) replayed through the hooks
// `kiro-learn init` installs, into a real collector with the built-in extractor.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackFigures, backFigures, sumBack } from '../src/back.ts';
import { isQuestionOnly, storeFigures } from '../src/metrics.ts';
import { type ReplayResult, replay } from '../src/replay.ts';
import { availableSources } from '../src/sources.ts';
import { makeWorld, type World } from '../src/world.ts';

let result: ReplayResult;

/** Every replayed record, and the store's figures over them. */
function store() {
  const all = result.transcripts.flatMap((t) => t.records);
  const figures = storeFigures(all, {
    turns: result.transcripts.reduce((a, t) => a + t.turns, 0),
    toolCalls: result.transcripts.reduce((a, t) => a + t.toolCalls, 0),
    prompts: result.transcripts.flatMap((t) => t.prompts),
    toolNames: result.toolNames,
  });
  return { all, figures };
}
let world: World | undefined;
/** What came back, per transcript, read while the collector still runs. */
let back: BackFigures[] = [];
let againDir: string | undefined;

beforeAll(async () => {
  const { sources: fixtures } = availableSources(false);
  // The fasthooks session recorded once more, as a second session of its project that asks
  // everything again: it has the first session's memory, and its own turns as it goes.
  const first = fixtures.find((s) => s.name === 'fasthooks-sample-main')!;
  const text = readFileSync(first.file, 'utf8');
  const sessionId = (
    JSON.parse(text.split('\n').find((l) => l.includes('"sessionId"'))!) as {
      sessionId: string;
    }
  ).sessionId;
  againDir = mkdtempSync(join(tmpdir(), 'kiro-learn-replay-again-'));
  const again = join(againDir, 'again.jsonl');
  writeFileSync(again, text.replaceAll(sessionId, randomUUID()));
  const sources = [...fixtures, { name: 'fasthooks-again', project: first.project, file: again }];
  world = await makeWorld({ env: { KIRO_LEARN_EXTRACTOR: 'builtin' } });
  result = await replay(sources, { world });
  const everything = new Map(
    [...result.store.values()].flatMap((records) => records.map((r) => [r.record_id, r] as const)),
  );
  back = [];
  for (const [i, t] of result.transcripts.entries()) {
    const earlier = result.transcripts
      .slice(0, i)
      .filter((e) => e.project === t.project)
      .flatMap((e) => e.records);
    back.push(await backFigures(world, sources[i]!, t, earlier, everything));
  }
}, 300_000);

afterAll(() => {
  world?.close();
  if (againDir) rmSync(againDir, { recursive: true, force: true });
});

describe('replaying public Claude Code sessions through the installed hooks', () => {
  it('runs every hook as Claude Code would, exit 0 and nothing on stderr', () => {
    expect(result.transcripts.length).toBeGreaterThanOrEqual(4);
    for (const t of result.transcripts) expect(t.hookFailures).toEqual([]);
  });

  it('stores what the sessions did, in each project of its own', () => {
    const fasthooks = result.transcripts.find((t) => t.name === 'fasthooks-sample-main')!;
    expect(fasthooks.turns).toBeGreaterThan(3);
    expect(fasthooks.records.length).toBeGreaterThan(0);
    expect(new Set(result.transcripts.flatMap((t) => t.records.map((r) => r.namespace))).size).toBe(
      result.store.size,
    );
    expect(fasthooks.records.some((r) => r.files_touched.includes('hello_world.py'))).toBe(true);
  });

  it('keeps what each prompt got back: nothing, or the context the hook printed', () => {
    for (const t of result.transcripts) {
      expect(t.contexts).toHaveLength(t.turns);
      for (const c of t.contexts) {
        if (c.context === '') expect(c.recordIds).toEqual([]);
        else expect(c.context).toMatch(/kiro-learn/);
      }
    }
  });

  it('stores what a user judges a record by: no question-only record, no tool name as a file, no pasted markdown, no short title', () => {
    const { figures } = store();
    expect(figures).toMatchObject({
      questionOnly: 0,
      toolNamesAsFiles: 0,
      markdownLines: 0,
      shortTitles: 0,
      outsidePaths: 0,
    });
  });

  it('measures the store', () => {
    const { all, figures } = store();
    expect(figures.records).toBe(all.length);
    expect(figures.recordsPerTurn).toBeGreaterThan(0);
  });

  it('gives no prompt a question-only record or one its own session still holds, and an information-free prompt nothing', () => {
    // A project replays more than one session: later sessions had earlier memory.
    expect(new Set(result.transcripts.map((t) => t.project)).size).toBeLessThan(
      result.transcripts.length,
    );
    const all = sumBack(back);
    // The second fasthooks session got the first one's memory.
    expect(back.at(-1)!.injected).toBeGreaterThan(0);
    expect(all).toMatchObject({ currentSessionInWindow: 0, echoes: 0 });
    expect(all.informationFreeWithContext).toBe(0);
    // A question-only record, judged as the store figures judge it: against the prompts of
    // the session it was made in.
    const madeIn = new Map(
      result.transcripts.flatMap((t) => t.records.map((r) => [r.record_id, [r, t]] as const)),
    );
    for (const t of result.transcripts) {
      for (const c of t.contexts) {
        for (const id of c.recordIds) {
          const [record, from] = madeIn.get(id) ?? [];
          if (record && from)
            expect(isQuestionOnly(record, from.prompts), record.title).toBe(false);
        }
      }
    }
  });
});
