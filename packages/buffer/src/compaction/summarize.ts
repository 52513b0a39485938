import type { Event } from '@kiro-learn/schema';
import { commandOf, outcomeOf, projectFilesOf, retentionKind } from './classify.js';

/** `incremental`: the previous prose plus new events. `full_rewrite`: prose rebuilt from raw events only. */
export type SummaryMode = 'incremental' | 'full_rewrite';

/** One summarizer call: fold these events into the chain. Structurally the extractor's CompactionRequest. */
export interface SummarizeRequest {
  namespace: string;
  mode: SummaryMode;
  /** The previous summary's prose; absent on a full rewrite. */
  previousSummary?: string;
  /** The chain's facts so far, key → value. */
  facts: Readonly<Record<string, string>>;
  /** The events to fold in, oldest first, huge fields already digested. */
  events: readonly Event[];
}

/** A summarizer's answer. Structurally the extractor's CompactionReply. */
export interface SummarizeReply {
  /** A short title; the buffer writes one when absent. */
  title?: string;
  /** The summary prose. */
  summary: string;
  /** Every stable fact, key → value (the previous ones included, unless obsolete). */
  facts: Record<string, string>;
  /** Keys that no longer hold. */
  obsolete: string[];
  /** Which summarizer answered (`acp`, `builtin`), for the record. */
  summarizer?: string;
}

/** Folds events into the summary; rejects when it cannot (nothing is then compacted). */
export type SummarizeFn = (request: SummarizeRequest) => Promise<SummarizeReply>;

const list = (items: readonly string[], max = 8) =>
  items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');

/**
 * The model-free summarizer: deterministic prose (what was read, changed, run, searched)
 * and facts (`modified <path>`, `ran <command>`, `events summarized`). The default when
 * no summarizer is given, so compaction works without an LLM.
 */
export function createBuiltinSummarizer(): SummarizeFn {
  return async ({ facts, events }) => {
    const read = new Set<string>();
    const written = new Set<string>();
    const searched: string[] = [];
    const next: Record<string, string> = {};
    const notes: string[] = [];
    for (const event of events) {
      const kind = retentionKind(event);
      const files = projectFilesOf(event);
      if (kind === 'file_read') for (const file of files) read.add(file);
      if (kind === 'file_write')
        for (const file of files) {
          written.add(file);
          next[`modified ${file}`.slice(0, 100)] = event.valid_time;
        }
      const command = commandOf(event);
      if (command) {
        const { ok, exit } = outcomeOf(event);
        next[`ran ${command}`.slice(0, 100)] =
          exit !== undefined ? `exit ${exit}` : ok === undefined ? 'ran' : ok ? 'ok' : 'failed';
      }
      if (kind === 'search' && command === undefined) searched.push(...files);
      if (event.kind === 'note' && event.body.type === 'text')
        notes.push(event.body.content.split('\n', 1)[0]!.slice(0, 120));
    }
    const done = Number(facts['events summarized'] ?? 0) + events.length;
    next['events summarized'] = String(Number.isFinite(done) ? done : events.length);
    const first = events[0]?.valid_time ?? '';
    const last = events.at(-1)?.valid_time ?? '';
    const parts = [`${events.length} events from ${first} to ${last}.`];
    if (read.size) parts.push(`Read ${list([...read])}.`);
    if (written.size) parts.push(`Changed ${list([...written])}.`);
    const ran = Object.keys(next).filter((key) => key.startsWith('ran '));
    if (ran.length)
      parts.push(
        `Ran ${list(
          ran.map((key) => key.slice(4)),
          5,
        )}.`,
      );
    if (searched.length) parts.push(`Searched ${list(searched)}.`);
    if (notes.length) parts.push(`Notes: ${list(notes, 3)}.`);
    return {
      summary: parts.join(' '),
      facts: { ...facts, ...next },
      obsolete: [],
      summarizer: 'builtin',
    };
  };
}
