// Keeps the labelled eval sets honest: every label points at a record of the prompt's own
// project, records are valid MemoryRecords, the paraphrase set keeps its size and its
// low word overlap. Data only: no store, no ranker.
import { MemoryRecordSchema } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { contentWords, stemWord } from '../eval/overlap.ts';
import { TAGS } from '../eval/paraphrase/set.ts';
import {
  PARAPHRASE_SET,
  SETS,
  sharedWithAnswers,
  TURNS_SET,
  toMemoryRecord,
} from '../eval/sets.ts';
import { TURNS_TAGS } from '../eval/turns/set.ts';

describe('content-word overlap', () => {
  it('counts a word and its everyday variants once, and skips stop words', () => {
    expect(new Set(['rejected', 'rejecting', 'rejects', 'reject'].map(stemWord)).size).toBe(1);
    expect(new Set(['cache', 'caches', 'cached', 'caching'].map(stemWord)).size).toBe(1);
    expect(new Set(['retry', 'retries', 'retried'].map(stemWord)).size).toBe(1);
    expect([...contentWords('Why does the webhook keep getting REJECTED again?')]).toEqual([
      'webhook',
      'reject',
    ]);
  });
});

describe.each(SETS.map((set) => [set.name, set] as const))('the %s set', (_, set) => {
  it('labels only records of the prompt’s own project, each key once', () => {
    const projectOf = new Map(set.records.map((r) => [r.key, r.project]));
    expect(projectOf.size).toBe(set.records.length);
    for (const p of set.prompts) {
      expect(p.relevant.length, p.prompt).toBeGreaterThan(0);
      expect(new Set(p.relevant).size, p.prompt).toBe(p.relevant.length);
      for (const key of p.relevant)
        expect(projectOf.get(key), `${p.prompt} → ${key}`).toBe(p.project);
    }
  });

  it('stores every record as a valid MemoryRecord', () => {
    for (const r of set.records) {
      const parsed = MemoryRecordSchema.safeParse(toMemoryRecord(r));
      expect(parsed.success, `${r.key}: ${parsed.error?.message}`).toBe(true);
    }
  });
});

describe('the paraphrase set', () => {
  const { records, prompts } = PARAPHRASE_SET;
  const byKey = new Map(
    records.map((r) => [r.key, r as (typeof records)[number] & { supersedes?: string }]),
  );

  it('has at least 300 records in at least 5 projects and at least 150 prompts', () => {
    expect(records.length).toBeGreaterThanOrEqual(300);
    expect(new Set(records.map((r) => r.project)).size).toBeGreaterThanOrEqual(5);
    expect(prompts.length).toBeGreaterThanOrEqual(150);
  });

  it('uses every tag, and paraphrases are the majority', () => {
    for (const tag of TAGS) {
      expect(prompts.filter((p) => p.tags.includes(tag)).length, tag).toBeGreaterThanOrEqual(5);
    }
    for (const p of prompts) for (const tag of p.tags) expect(TAGS, p.prompt).toContain(tag);
    const paraphrases = prompts.filter((p) => p.tags.includes('paraphrase')).length;
    expect(paraphrases).toBeGreaterThan(prompts.length / 2);
  });

  it('mostly shares at most one content word between a prompt and its answers', () => {
    const low = prompts.filter((p) => sharedWithAnswers(PARAPHRASE_SET, p).length <= 1);
    expect(low.length / prompts.length).toBeGreaterThan(0.5);
  });

  it('labels several records on multi-record prompts', () => {
    for (const p of prompts.filter((p) => p.tags.includes('multi-record'))) {
      expect(p.relevant.length, p.prompt).toBeGreaterThan(1);
    }
  });

  it('supersedes only older records of the same project, and recency prompts want the newer', () => {
    for (const r of byKey.values()) {
      if (r.supersedes === undefined) continue;
      const older = byKey.get(r.supersedes);
      expect(older?.project, r.key).toBe(r.project);
      expect(older!.daysAgo, r.key).toBeGreaterThan(r.daysAgo);
    }
    for (const p of prompts.filter((p) => p.tags.includes('recency'))) {
      const wanted = p.relevant.map((key) => byKey.get(key)!);
      expect(
        wanted.some((r) => r.supersedes !== undefined),
        p.prompt,
      ).toBe(true);
      for (const r of wanted) {
        if (r.supersedes !== undefined) expect(p.relevant, p.prompt).not.toContain(r.supersedes);
      }
    }
  });
});

describe('the turns set', () => {
  const { records, prompts } = TURNS_SET;

  it('has at least 100 prompts over short turn records of several conversations', () => {
    expect(prompts.length).toBeGreaterThanOrEqual(100);
    expect(new Set(records.map((r) => r.project)).size).toBeGreaterThanOrEqual(5);
    for (const r of records) expect(r.summary.length, r.key).toBeLessThan(600);
  });

  it('uses every tag, and most prompts ask about an answer in a reply', () => {
    for (const tag of TURNS_TAGS) {
      expect(prompts.filter((p) => p.tags.includes(tag)).length, tag).toBeGreaterThanOrEqual(5);
    }
    expect(prompts.filter((p) => p.tags.includes('reply')).length).toBeGreaterThan(
      prompts.length / 2,
    );
  });

  it("carries the previous turn's request as the questions a turn record answers", () => {
    const withQuestions = records.filter((r) => (r.questions?.length ?? 0) > 0);
    expect(withQuestions.length).toBeGreaterThan(records.length / 2);
  });
});
