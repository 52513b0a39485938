import { buildNamespace, type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import type { LabelledPrompt, LabelledRecord } from './labelled.ts';
import { sharedWords } from './overlap.ts';
import { PARAPHRASE_PROMPTS, PARAPHRASE_RECORDS } from './paraphrase/index.ts';
import { PROMPTS } from './prompts.ts';
import { RECORDS } from './records.ts';
import { TURNS_PROMPTS, TURNS_RECORDS } from './turns/index.ts';

/** The eval's clock: records are this many days old at it. */
export const NOW = Date.parse('2026-11-01T12:00:00Z');
const DAY = 86_400_000;

export type { LabelledPrompt, LabelledRecord } from './labelled.ts';

export interface EvalSet {
  name: string;
  records: readonly LabelledRecord[];
  prompts: readonly LabelledPrompt[];
}

export const namespaceOf = (project: string): string => buildNamespace('eval', project);

/** The stored form of a labelled record: its own namespace, created `daysAgo` before NOW. */
export function toMemoryRecord(r: LabelledRecord): MemoryRecord {
  const time = NOW - r.daysAgo * DAY;
  return {
    record_id: newRecordId(time),
    namespace: namespaceOf(r.project),
    strategy: 'eval',
    title: r.title,
    summary: r.summary,
    facts: r.facts,
    concepts: r.concepts,
    files_touched: r.files,
    observation_type: r.type,
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
    ...(r.questions && r.questions.length > 0 ? { questions: [...r.questions] } : {}),
  };
}

/** Content words a prompt shares with its answers (the answering record sharing most). */
export function sharedWithAnswers(set: EvalSet, prompt: LabelledPrompt): string[] {
  const byKey = new Map(set.records.map((r) => [r.key, r]));
  return sharedWords(
    prompt.prompt,
    prompt.relevant.map((key) => byKey.get(key)!),
  );
}

/** A record restating a relevant record answers the prompt as well (see duplicates.ts). */
function withRestatements(relevant: readonly string[]): string[] {
  const groupOf = new Map(RECORDS.map((r) => [r.key, r.restates ?? r.key]));
  const groups = new Set(relevant.map((key) => groupOf.get(key)));
  return RECORDS.filter((r) => groups.has(groupOf.get(r.key))).map((r) => r.key);
}

/** The first set: 171 records in 3 projects, 119 prompts tagged by kind, mostly lexical. */
export const ORIGINAL_SET: EvalSet = {
  name: 'original',
  records: RECORDS,
  prompts: PROMPTS.map((p) => ({
    project: p.project,
    tags: [p.kind],
    prompt: p.prompt,
    relevant: withRestatements(p.relevant),
  })),
};

/** The paraphrase set (paraphrase/): most prompts share at most one content word with their answer. */
export const PARAPHRASE_SET: EvalSet = {
  name: 'paraphrase',
  records: PARAPHRASE_RECORDS,
  prompts: PARAPHRASE_PROMPTS,
};

/**
 * The turns set (turns/): short turn records of multi-turn conversations, where the answer
 * often sits in a reply that never names its subject.
 */
export const TURNS_SET: EvalSet = {
  name: 'turns',
  records: TURNS_RECORDS,
  prompts: TURNS_PROMPTS,
};

export const SETS: readonly EvalSet[] = [ORIGINAL_SET, PARAPHRASE_SET, TURNS_SET];
