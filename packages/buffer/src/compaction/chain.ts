import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { FactChange } from './integrity.js';
import type { SummaryMode } from './summarize.js';

/** The strategy of summary records. */
export const COMPACTION_STRATEGY = 'compaction';

/** What a summary record keeps in `metadata.compaction`: its place in the chain and what it covers. */
export interface CompactionMetadata {
  /** The previous summary record of the project, or null for the first. */
  parent: string | null;
  /** 1 for the first summary of the project, then +1 per pass. */
  pass: number;
  mode: SummaryMode;
  /** The archived events this pass covers (all listed in `source_event_ids`). */
  range: { first: string; last: string; from: string; to: string; events: number };
  /** The chain's facts after this pass, key → value. */
  facts: Record<string, string>;
  /** Keys retired so far; they must not come back. */
  obsolete: string[];
  /** Values this pass changed. */
  changed: FactChange[];
  /** What the integrity check repaired. */
  repairs: string[];
  /** Prompt tokens of the covered events before (raw) and after (summary plus markers). */
  tokens: { before: number; after: number };
  /** Which summarizer wrote it. */
  summarizer: string;
}

/** The newest summary record of a project, as the next pass builds on it. */
export interface ChainHead extends CompactionMetadata {
  recordId: string;
  createdAt: string;
  summary: string;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** Reads a summary record's chain data; tolerant, since anyone may post a `compaction` record. */
export function headOf(record: MemoryRecord): ChainHead {
  const raw = (record.metadata?.compaction ?? {}) as Partial<
    Record<keyof CompactionMetadata, unknown>
  >;
  const facts: Record<string, string> = {};
  if (raw.facts && typeof raw.facts === 'object')
    for (const [key, value] of Object.entries(raw.facts))
      if (typeof value === 'string') facts[key] = value;
  const range = (raw.range ?? {}) as Partial<CompactionMetadata['range']>;
  const tokens = (raw.tokens ?? {}) as Partial<CompactionMetadata['tokens']>;
  const ids = record.source_event_ids;
  return {
    recordId: record.record_id,
    createdAt: record.created_at,
    summary: record.summary,
    parent: typeof raw.parent === 'string' ? raw.parent : null,
    pass: typeof raw.pass === 'number' ? raw.pass : 1,
    mode: raw.mode === 'incremental' ? 'incremental' : 'full_rewrite',
    range: {
      first: range.first ?? ids[0]!,
      last: range.last ?? ids.at(-1)!,
      from: range.from ?? record.created_at,
      to: range.to ?? record.created_at,
      events: range.events ?? ids.length,
    },
    facts,
    obsolete: strings(raw.obsolete),
    changed: Array.isArray(raw.changed) ? (raw.changed as FactChange[]) : [],
    repairs: strings(raw.repairs),
    tokens: { before: tokens.before ?? 0, after: tokens.after ?? 0 },
    summarizer: typeof raw.summarizer === 'string' ? raw.summarizer : 'unknown',
  };
}

/** The project's newest summary record, where its chain continues; undefined before the first pass. */
export async function loadHead(
  storage: StorageBackend,
  namespace: string,
): Promise<ChainHead | undefined> {
  const { items } = await storage.listRecords({
    namespace,
    strategy: COMPACTION_STRATEGY,
    limit: 1,
  });
  return items[0] ? headOf(items[0]) : undefined;
}

/** The chain head as the extraction prompt shows it. */
export function renderHead(head: ChainHead): string {
  const facts = Object.entries(head.facts).map(([key, value]) => `- ${key}: ${value}`);
  return [
    `Summary of earlier events of this project (kiro-learn compaction record ${head.recordId}, pass ${head.pass}; its latest pass covers ${head.range.events} events from ${head.range.from} to ${head.range.to}):`,
    head.summary,
    ...(facts.length ? ['Facts:', ...facts] : []),
  ].join('\n');
}
