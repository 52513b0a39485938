import type { MemoryRecord } from '@kiro-learn/schema';

/** The first line of every non-empty context (DESIGN.md §3). */
export const CONTEXT_HEADER = '## Prior observations from kiro-learn';

/** Characters per token for budgeting: the usual estimate for English and code. */
export const CHARS_PER_TOKEN = 4;

/** Limits on the context block, in estimated tokens. */
export interface ContextBudget {
  /** The whole context, header included. */
  tokens: number;
  /** Most one record's summary may take; longer summaries are trimmed. */
  summaryTokens: number;
}

/** A formatted context and what went into it. */
export interface FormattedContext {
  /** The text the agent reads; empty when no record fitted. */
  context: string;
  /** The records placed, in order (a prefix of the input). */
  records: MemoryRecord[];
  /** The budget trimmed a record or left one out. */
  budgetCut: boolean;
}

// A block that cannot carry at least this much summary is worth less than its title costs.
const MIN_SUMMARY_CHARS = 80;
const ELLIPSIS = '…';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function trimTo(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - ELLIPSIS.length);
  const space = cut.lastIndexOf(' ');
  return `${(space > cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}${ELLIPSIS}`;
}

/**
 * Formats records best first into the context block, adding records until the budget is
 * spent. A summary too long for the space left is trimmed (and facts dropped from the
 * end) rather than the whole record left out.
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
 */
export function formatContext(
  records: readonly MemoryRecord[],
  budget: ContextBudget,
): FormattedContext {
  if (records.length === 0) return { context: '', records: [], budgetCut: false };
  let remaining = budget.tokens * CHARS_PER_TOKEN - (CONTEXT_HEADER.length + 1);
  const blocks: string[] = [];
  const placed: MemoryRecord[] = [];
  let budgetCut = false;
  for (const record of records) {
    const head = `\n### ${oneLine(record.title)}\n\n`;
    const room = Math.min(remaining - head.length - 1, budget.summaryTokens * CHARS_PER_TOKEN);
    const summaryText = record.summary.trim();
    if (room < Math.min(MIN_SUMMARY_CHARS, summaryText.length)) {
      budgetCut = true;
      break;
    }
    const summary = trimTo(summaryText, room);
    if (summary !== summaryText) budgetCut = true;
    let block = head + summary;
    let separator = '\n\n';
    for (const fact of record.facts) {
      const line = `${separator}- ${oneLine(fact)}`;
      if (block.length + line.length + 1 > remaining) {
        budgetCut = true;
        break;
      }
      block += line;
      separator = '\n';
    }
    block += '\n';
    remaining -= block.length;
    blocks.push(block);
    placed.push(record);
  }
  if (placed.length === 0) return { context: '', records: [], budgetCut };
  return { context: `${CONTEXT_HEADER}\n${blocks.join('')}`, records: placed, budgetCut };
}
