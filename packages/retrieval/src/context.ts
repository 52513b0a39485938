import { inertLine, inertLines, type MemoryRecord } from '@kiro-learn/schema';
import { overlap, wordPairs } from './overlap.js';

/** The first line of every non-empty context (DESIGN.md §3). */
export const CONTEXT_HEADER = '## Prior observations from kiro-learn';

/** Characters per token for budgeting: the usual estimate for English and code. */
export const CHARS_PER_TOKEN = 4;

/**
 * Most of a record's (or a fact's) word pairs the context may already hold before it is
 * left out as a repeat. One turn's summary, error and discovery records restate each
 * other; 0.8 leaves the restatements out and keeps records that share a subject but say
 * something else (see the eval's duplicate groups).
 */
export const DEFAULT_MAX_OVERLAP = 0.8;

/** Limits on the context block. */
export interface ContextBudget {
  /** The whole context in estimated tokens, header included. */
  tokens: number;
  /** Most tokens one record's summary may take; longer summaries are trimmed. */
  summaryTokens: number;
  /** Most records placed (default: as many as fit). */
  records?: number;
  /**
   * A record, a summary line or a fact whose word pairs are more than this share in the
   * context already is left out as a repeat (default DEFAULT_MAX_OVERLAP; 1 keeps everything).
   */
  maxOverlap?: number;
  /**
   * Who a record is from, when not the reader (a teammate's record from team memory):
   * its heading then reads `### <title> — from <author>`.
   */
  author?: (record: MemoryRecord) => string | undefined;
  /**
   * The title of the record that superseded this one (its `superseded_by`), when known: a
   * superseded record's block then starts `Superseded on <date> by "<title>".` (by its id
   * when unknown), so the agent never reads an old fact as the current one.
   */
  successor?: (record: MemoryRecord) => string | undefined;
}

/** A formatted context and what went into it. */
export interface FormattedContext {
  /** The text the agent reads; empty when no record fitted. */
  context: string;
  /** The records placed, in input order. */
  records: MemoryRecord[];
  /** Records left out because the records placed before them already said most of it. */
  repeats: MemoryRecord[];
  /** The budget trimmed a record or left one out. */
  budgetCut: boolean;
}

// A block that cannot carry at least this much summary is worth less than its title costs.
const MIN_SUMMARY_CHARS = 80;
/**
 * How many records the budget is shared among: each of the first ones placed takes at
 * most an equal share of what is left for it and the rest of them, so one record with
 * eighty facts (a long turn's summary) cannot fill the room four other relevant records
 * needed. The first five are what a reader weighs; what a short record leaves over goes
 * to the records after it, and a record after the fifth takes what is left.
 */
export const SHARED_AMONG = 5;
const ELLIPSIS = '…';

function trimTo(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - ELLIPSIS.length);
  const space = cut.lastIndexOf(' ');
  return `${(space > cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}${ELLIPSIS}`;
}

/** `Superseded on 2026-10-02 by "Queue moved to SQS".` for a superseded record, else undefined. */
export function supersededNote(
  record: MemoryRecord,
  successorTitle: string | undefined,
): string | undefined {
  if (!record.superseded_by) return undefined;
  const day = record.superseded_at?.slice(0, 10);
  const by = successorTitle ? `"${inertLine(successorTitle)}"` : record.superseded_by;
  return `Superseded${day ? ` on ${day}` : ''} by ${by}.`;
}

/**
 * Formats records best first into the context block, adding records until the budget is
 * spent. A record gets at most its share of what is left (see SHARED_AMONG): a summary
 * too long for it is trimmed (and facts dropped from the end) rather than the whole
 * record, or the records after it, left out. A record that mostly repeats what is placed
 * already is skipped, letting the next one in; a summary line that repeats an earlier
 * record, and a fact that repeats its own summary or an earlier record, are dropped.
 *
 * ```
 * ## Prior observations from kiro-learn
 *
 * ### <title>
 *
 * <summary>
 *
 * - <fact>
 * ```
 * Blocks are separated by one blank line; the text ends with a newline.
 *
 * Memory text is data, never structure: every field is rendered inert (see inertLine in
 * @kiro-learn/schema), so no record can open a heading, list item, fence or tag of its own,
 * nor a block that looks like another record's. A summary keeps its lines; titles, facts
 * and author names are one line each.
 */
export function formatContext(
  records: readonly MemoryRecord[],
  budget: ContextBudget,
): FormattedContext {
  const maxOverlap = budget.maxOverlap ?? DEFAULT_MAX_OVERLAP;
  const maxRecords = budget.records ?? Number.POSITIVE_INFINITY;
  let remaining = budget.tokens * CHARS_PER_TOKEN - (CONTEXT_HEADER.length + 1);
  const blocks: string[] = [];
  const placed: MemoryRecord[] = [];
  const repeats: MemoryRecord[] = [];
  // Word pairs of everything placed so far, what a candidate is compared with.
  const said = new Set<string>();
  const say = (pairs: ReadonlySet<string>) => {
    for (const pair of pairs) said.add(pair);
  };
  let budgetCut = false;
  for (const [index, record] of records.entries()) {
    if (placed.length >= maxRecords) break;
    // This record's share: the first records split what is left between them; one after
    // them takes whatever they left over.
    const sharing =
      placed.length < SHARED_AMONG
        ? Math.min(SHARED_AMONG - placed.length, records.length - index, maxRecords - placed.length)
        : 1;
    const share = Math.floor(remaining / Math.max(1, sharing));
    const title = inertLine(record.title);
    // A fact's inert text only once the record is placed: most candidates are repeats.
    const facts = record.facts.map((fact) => ({ fact, pairs: wordPairs(fact) }));
    const all = new Set([...wordPairs(title), ...wordPairs(record.summary)]);
    for (const fact of facts) for (const pair of fact.pairs) all.add(pair);
    if (overlap(all, said) > maxOverlap) {
      repeats.push(record);
      continue;
    }
    // Summary lines earlier records already said are left out as well, unless that is all of it.
    const lines = inertLines(record.summary);
    const fresh = lines.filter((line) => overlap(wordPairs(line), said) <= maxOverlap);
    const summaryText = (fresh.length > 0 ? fresh : lines).join('\n').trim();
    const author = budget.author?.(record);
    const note = supersededNote(record, budget.successor?.(record));
    const head = `\n### ${title}${author ? ` — from ${inertLine(author)}` : ''}\n\n${note ? `${note}\n` : ''}`;
    // A share too small for a useful summary takes what it needs from what is left.
    const least = Math.min(MIN_SUMMARY_CHARS, summaryText.length);
    const room = Math.min(
      Math.max(share - head.length - 1, least),
      remaining - head.length - 1,
      budget.summaryTokens * CHARS_PER_TOKEN,
    );
    if (room < least) {
      budgetCut = true;
      break;
    }
    const summary = trimTo(summaryText, room);
    if (summary !== summaryText) budgetCut = true;
    say(wordPairs(title));
    say(wordPairs(summary));
    let block = head + summary;
    let separator = '\n\n';
    for (const fact of facts) {
      if (overlap(fact.pairs, said) > maxOverlap) continue;
      const line = `${separator}- ${inertLine(fact.fact)}`;
      if (block.length + line.length + 1 > share) {
        budgetCut = true;
        break;
      }
      block += line;
      separator = '\n';
      say(fact.pairs);
    }
    block += '\n';
    remaining -= block.length;
    blocks.push(block);
    placed.push(record);
  }
  if (placed.length === 0) return { context: '', records: [], repeats, budgetCut };
  return {
    context: `${CONTEXT_HEADER}\n${blocks.join('')}`,
    records: placed,
    repeats,
    budgetCut,
  };
}
