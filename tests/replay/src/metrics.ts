/**
 * What a replay stored, measured the way a user would judge it (issue "What gets stored"):
 * records per turn, records that say nothing (no fact and no file), titles of three words or
 * fewer, tool names listed as files, paths from outside the project, near-duplicate pairs,
 * markdown structure (headings, table rows, code fences) pasted into stored text, records
 * that only repeat the user's question, absolute paths in stored text, and supersessions.
 */
import type { MemoryRecord } from '@kiro-learn/schema';
import { FRAMING_WORDS, words } from '@kiro-learn/test-harness/words';

export interface StoreFigures {
  turns: number;
  toolCalls: number;
  records: number;
  /** records / turns */
  recordsPerTurn: number;
  noFactNoFile: number;
  shortTitles: number;
  toolNamesAsFiles: number;
  /** Records listing a file by an absolute path (outside the project: project files are relative). */
  outsidePaths: number;
  nearDuplicatePairs: number;
  /** Lines of stored summaries and facts that are markdown headings, table rows or code fences. */
  markdownLines: number;
  /** Records with such a line. */
  markdownRecords: number;
  /** Records that say nothing the user's prompts did not (a question echoed as memory). */
  questionOnly: number;
  /** Records whose title, summary or facts hold an absolute path (the project's own, or outside it). */
  pathsInText: number;
  /** Records a newer record superseded. */
  superseded: number;
}

export function titleWords(title: string): number {
  return (title.match(/[\p{L}\p{N}][\p{L}\p{N}._/-]*/gu) ?? []).length;
}

/** A heading, a table row or a code fence, as markdown renders them. */
export function isMarkdownStructure(line: string): boolean {
  return (
    /^\s{0,3}#{1,6}\s/.test(line) ||
    /^\s*\|.*\|\s*$/.test(line) ||
    /^\s*(```|~~~)/.test(line) ||
    /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/.test(line)
  );
}

function markdownLinesOf(record: MemoryRecord): number {
  return [record.summary, ...record.facts]
    .flatMap((text) => text.split('\n'))
    .filter(isMarkdownStructure).length;
}

/** Word sets of a record's own text (title, summary, facts). */
function shingles(record: MemoryRecord): Set<string> {
  return new Set(words([record.title, record.summary, ...record.facts].join(' ')));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 1 : both / union;
}

/** Near duplicates: two records of one project whose words overlap by 80 % or more. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

export function nearDuplicatePairs(
  records: readonly MemoryRecord[],
): Array<[MemoryRecord, MemoryRecord]> {
  const sets = records.map(shingles);
  const pairs: Array<[MemoryRecord, MemoryRecord]> = [];
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      if (records[i]!.namespace !== records[j]!.namespace) continue;
      if (jaccard(sets[i]!, sets[j]!) >= NEAR_DUPLICATE_JACCARD)
        pairs.push([records[i]!, records[j]!]);
    }
  }
  return pairs;
}

/**
 * A record that only repeats the user: fewer than three content words of its title,
 * summary and facts appear in none of the session's prompts.
 */
export function isQuestionOnly(record: MemoryRecord, prompts: readonly string[]): boolean {
  const asked = new Set(prompts.flatMap(words));
  const own = new Set(
    words([record.title, record.summary, ...record.facts, ...record.files_touched].join(' ')),
  );
  let fresh = 0;
  for (const w of own) if (!asked.has(w) && !FRAMING_WORDS.has(w)) fresh++;
  return fresh < 3;
}

export function isToolNameAsFile(file: string, toolNames: ReadonlySet<string>): boolean {
  const lower = new Set([...toolNames].map((n) => n.toLowerCase()));
  return lower.has(file.toLowerCase()) || lower.has(file.replace(/^.*\//, '').toLowerCase());
}

export function isOutsidePath(file: string): boolean {
  return /^(\/|~\/|[A-Za-z]:[\\/])/.test(file);
}

/**
 * A path of a machine's file system in text: under a home, temp or system directory
 * (`/home/dev/x`, `/Users/pete/y`, `/tmp/z`, `~/.claude/…`, `C:\\Users\\…`). Not `/dev/null`,
 * a URL path (`/assets/app.css`) or a relative glob.
 */
const ABSOLUTE_PATH =
  /(?<![\w.:/~\\-])(?:~\/|\/(?:home|Users|tmp|var|private|opt|root|mnt|Volumes|srv|usr|etc)\/|[A-Za-z]:\\)[\w.@-]+/;

export function hasPathInText(record: MemoryRecord): boolean {
  return [record.title, record.summary, ...record.facts].some((text) => ABSOLUTE_PATH.test(text));
}

export function storeFigures(
  records: readonly MemoryRecord[],
  input: {
    turns: number;
    toolCalls: number;
    prompts: readonly string[];
    toolNames: ReadonlySet<string>;
  },
): StoreFigures {
  const markdown = records.map(markdownLinesOf);
  return {
    turns: input.turns,
    toolCalls: input.toolCalls,
    records: records.length,
    recordsPerTurn: input.turns === 0 ? 0 : records.length / input.turns,
    noFactNoFile: records.filter((r) => r.facts.length === 0 && r.files_touched.length === 0)
      .length,
    shortTitles: records.filter((r) => titleWords(r.title) <= 3).length,
    toolNamesAsFiles: records.filter((r) =>
      r.files_touched.some((f) => isToolNameAsFile(f, input.toolNames)),
    ).length,
    outsidePaths: records.filter((r) => r.files_touched.some(isOutsidePath)).length,
    nearDuplicatePairs: nearDuplicatePairs(records).length,
    markdownLines: markdown.reduce((a, b) => a + b, 0),
    markdownRecords: markdown.filter((n) => n > 0).length,
    questionOnly: records.filter((r) => isQuestionOnly(r, input.prompts)).length,
    pathsInText: records.filter(hasPathInText).length,
    superseded: records.filter((r) => r.superseded_by !== undefined).length,
  };
}

/** Characters injected per prompt: mean, and how many prompts got anything. */
export function contextFigures(contexts: ReadonlyArray<{ context: string }>) {
  const lengths = contexts.map((c) => c.context.length);
  const total = lengths.reduce((a, b) => a + b, 0);
  return {
    prompts: contexts.length,
    withContext: lengths.filter((n) => n > 0).length,
    meanChars: contexts.length === 0 ? 0 : total / contexts.length,
  };
}
