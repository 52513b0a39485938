import { bodyText, LIMITS } from '@kiro-learn/schema';
import type { RecordDraft } from '../records.js';
import { oneLine, truncate } from '../text.js';
import {
  errorMessage,
  errorName,
  failingTests,
  formatCounts,
  isTestCommand,
  parseTestCounts,
  type TestCounts,
} from './output.js';
import { readToolUse, type ToolUse } from './tool-use.js';
import type { Turn } from './turns.js';

/** A command (or tool) that failed, and what happened next in the turn. */
interface Failure {
  key: string;
  first: ToolUse;
  firstIndex: number;
  message: string | undefined;
  tests: string[];
  counts: TestCounts | undefined;
  /** The later run that succeeded, when there was one. */
  fixedBy?: ToolUse;
  /** Edits between the failure and the success (or the end of the turn). */
  edits: ToolUse[];
}

const code = (text: string, max = 120) => `\`${truncate(oneLine(text), max)}\``;

function firstSentence(text: string, max = 160): string {
  const line = oneLine(text);
  const end = /[.?!](?:\s|$)/.exec(line);
  return truncate(end && end.index < max ? line.slice(0, end.index + 1) : line, max);
}

function list(items: readonly string[], max = 4): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

function countsOf(tool: ToolUse): TestCounts | undefined {
  return tool.action === 'command' ? parseTestCounts(tool.output) : undefined;
}

function failed(tool: ToolUse): boolean {
  return tool.ok === false || (countsOf(tool)?.failed ?? 0) > 0;
}

function succeeded(tool: ToolUse): boolean {
  const counts = countsOf(tool);
  return tool.ok === true
    ? (counts?.failed ?? 0) === 0
    : tool.ok === undefined && counts?.failed === 0;
}

function keyOf(tool: ToolUse): string {
  return tool.command ?? `${tool.name} ${tool.files.join(',')}`;
}

/** `failed (exit 1; 1 failed, 11 passed of 12)`, or just `failed` without the detail. */
function verdictOf(tool: ToolUse, detailed = true): string {
  const counts = countsOf(tool);
  const detail = [
    tool.exitCode !== undefined && tool.exitCode !== 0 ? `exit ${tool.exitCode}` : '',
    counts ? formatCounts(counts) : '',
  ]
    .filter(Boolean)
    .join('; ');
  const verdict = failed(tool)
    ? 'failed'
    : succeeded(tool)
      ? counts
        ? 'passed'
        : 'succeeded'
      : 'ran';
  return `${verdict}${detailed && detail ? ` (${detail})` : ''}`;
}

function subjectOf(tool: ToolUse): string {
  return tool.command
    ? code(tool.command)
    : `${tool.name}${tool.files.length ? ` on ${list(tool.files)}` : ''}`;
}

/** `pnpm test` failed (exit 1; 1 failed, 11 passed of 12) */
function describeRun(tool: ToolUse): string {
  return `${subjectOf(tool)} ${verdictOf(tool)}`;
}

/** Ends text as a sentence: error messages often end in `?` or `.` already. */
function sentence(text: string): string {
  return /[.?!…]$/.test(text) ? text : `${text}.`;
}

/** src/a.ts (Keep the raw body): replaced `x` with `y`; without the change when `brief`. */
function describeEdit(tool: ToolUse, brief = false): string {
  const where = tool.files.length ? list(tool.files) : tool.name;
  const why = tool.purpose ? ` (${truncate(tool.purpose, 160)})` : '';
  const change = brief ? undefined : tool.change;
  let what = '';
  if (change?.before !== undefined && change.after !== undefined) {
    what = `: replaced ${code(change.before)} with ${code(change.after)}`;
  } else if (change?.after !== undefined) {
    what = `: ${change.kind === 'append' ? 'appended' : 'wrote'} ${change.after.split('\n').length} lines`;
  } else if (change?.before !== undefined) what = `: removed ${code(change.before)}`;
  return `${where}${why}${what}`;
}

/** Collects failures in order and pairs each with the run that later succeeded. */
function findFailures(tools: readonly ToolUse[]): Failure[] {
  const failures: Failure[] = [];
  const open: Failure[] = [];
  tools.forEach((tool, index) => {
    if (tool.action === 'write' && tool.ok !== false) {
      for (const failure of open) failure.edits.push(tool);
      return;
    }
    const key = keyOf(tool);
    if (failed(tool)) {
      if (open.some((failure) => failure.key === key)) return;
      const output = tool.output;
      const failure: Failure = {
        key,
        first: tool,
        firstIndex: index,
        message: errorMessage(output),
        tests: tool.action === 'command' ? failingTests(output) : [],
        counts: countsOf(tool),
        edits: [],
      };
      failures.push(failure);
      open.push(failure);
      return;
    }
    if (!succeeded(tool)) return;
    const isTest = tool.command !== undefined && isTestCommand(tool.command);
    for (let i = open.length - 1; i >= 0; i--) {
      const failure = open[i]!;
      const sameSuite =
        isTest && failure.first.command !== undefined && isTestCommand(failure.first.command);
      if (failure.key === key || sameSuite) {
        failure.fixedBy = tool;
        open.splice(i, 1);
      }
    }
  });
  return failures;
}

/** Test files named in failing test titles (`src/a.test.ts > name`, `tests/x.py::test_y`). */
function testFiles(tests: readonly string[]): string[] {
  return tests
    .map((test) => /^([\w./@-]+\.\w+)(?:\s*>|::|\s|$)/.exec(test)?.[1])
    .filter((file): file is string => file?.includes('/') === true);
}

/** `StripeSignatureVerificationError in src/a.test.ts > rejects unsigned payloads` */
function failureHeadline(failure: Failure): string {
  const first = failure.first;
  const subject = failure.tests[0] ?? (first.command ? code(first.command, 80) : first.name);
  const cause =
    (failure.message && (errorName(failure.message) ?? truncate(failure.message, 80))) ??
    (first.exitCode !== undefined ? `exit ${first.exitCode}` : 'failure');
  return `${cause} in ${subject}`;
}

const editedFiles = (failure: Failure) => [...new Set(failure.edits.flatMap((edit) => edit.files))];

/**
 * The record of one failure: the failing run, the error message, the failing tests, the
 * edits (with their code) and the run that confirmed the fix. The turn's request and the
 * agent's explanation live in the turn summary, not here.
 */
function errorDraft(failure: Failure, promptId: string | undefined): RecordDraft {
  const first = failure.first;
  const editFiles = editedFiles(failure);
  const title = `${failureHeadline(failure)} — ${failure.fixedBy ? `fixed${editFiles.length ? ` in ${list(editFiles, 2)}` : ''}` : 'unresolved'}`;
  const summary = [
    sentence(failure.message ? `${describeRun(first)}: ${failure.message}` : describeRun(first)),
  ];
  if (failure.fixedBy) {
    summary.push(
      `${failure.edits.length ? `Fixed by editing ${list(editFiles, 3)}` : 'Fixed without an edit in this turn (a retry or another command)'}; afterwards ${describeRun(failure.fixedBy)}.`,
    );
  } else if (failure.edits.length) {
    summary.push(
      `Edited ${list(editFiles, 3)} after the failure, not yet confirmed by a passing run.`,
    );
  } else summary.push('Not fixed in this turn.');
  // The title names the first failing test unless the title is too long to keep it.
  const inTitle = title.length <= LIMITS.titleLength ? failure.tests[0] : undefined;
  const facts = [
    ...failure.tests.filter((test) => test !== inTitle).map((test) => `Failing test: ${test}`),
    ...failure.edits.map(
      (edit) => `${failure.fixedBy ? 'Fix' : 'Attempted fix'}: ${describeEdit(edit)}`,
    ),
  ];
  const name = failure.message ? errorName(failure.message) : undefined;
  return {
    type: 'error',
    title,
    summary: summary.join(' '),
    facts,
    concepts: [
      ...(name ? [name] : []),
      failure.fixedBy ? 'fixed' : 'unresolved',
      ...(failure.tests.length ? ['failing-test'] : []),
    ],
    files: [...testFiles(failure.tests), ...first.files, ...editFiles],
    sources: [
      ...(promptId ? [promptId] : []),
      first.eventId,
      ...failure.edits.map((edit) => edit.eventId),
      ...(failure.fixedBy ? [failure.fixedBy.eventId] : []),
    ],
  };
}

/**
 * One line per distinct command, its verdicts in order (`pnpm test` failed, then passed).
 * A run an error record describes gets its bare verdict here; others keep their detail.
 */
function runLines(tools: readonly ToolUse[], described: ReadonlySet<ToolUse>): string[] {
  const verdicts = new Map<string, string[]>();
  for (const tool of tools) {
    if (tool.action !== 'command') continue;
    const subject = subjectOf(tool);
    const verdict = verdictOf(tool, !described.has(tool));
    const seen = verdicts.get(subject);
    if (!seen) verdicts.set(subject, [verdict]);
    else if (seen.at(-1) !== verdict) seen.push(verdict);
  }
  return [...verdicts].map(([subject, seen]) => `${subject} ${seen.join(', then ')}`);
}

const RUNNERS =
  /\b(vitest|jest|mocha|pytest|cargo|go|npm|pnpm|yarn|bun|deno|make|gradle|mvn|tsc|eslint|biome|docker|git)\b/g;

// An answer longer than this gets its own discovery record; the turn summary keeps its lead.
const LONG_ANSWER = 600;

/**
 * The records one turn deserves, each saying what the others do not:
 * - a `session_summary` (when the turn did anything): the request, the outcome, the files
 *   read and modified, the commands and their verdicts, and each error in one line;
 * - an `error` per distinct failure: the failing run, the message, the failing tests, the
 *   fix with its code and the run that confirmed it;
 * - a `discovery` only for a long closing explanation about real work: the summary keeps
 *   its first sentence, the discovery the whole of it.
 */
export function summarizeTurn(turn: Turn): RecordDraft[] {
  const tools = turn.events.map(readToolUse).filter((tool): tool is ToolUse => tool !== undefined);
  const request = turn.prompt ? oneLine(bodyText(turn.prompt.body)) : '';
  const answer = turn.end ? bodyText(turn.end.body).trim() : '';
  if (!request && !answer && tools.length === 0) return [];

  const reads = [...new Set(tools.filter((t) => t.action === 'read').flatMap((t) => t.files))];
  const edits = tools.filter((t) => t.action === 'write' && t.ok !== false);
  const written = [...new Set(edits.flatMap((t) => t.files))];
  const failures = findFailures(tools);
  const fixed = failures.filter((failure) => failure.fixedBy);
  // What the error records describe in full, so the turn summary only names it.
  const inErrors = new Set(
    failures.flatMap((f) => [f.first, ...f.edits, ...(f.fixedBy ? [f.fixedBy] : [])]),
  );
  const runs = runLines(tools, inErrors);
  const promptId = turn.prompt?.event_id;
  const workedOn = edits.length > 0 || failures.length > 0 || reads.length > 0;
  const discovery = answer.length > LONG_ANSWER && workedOn;

  const activity = [
    written.length ? `Edited ${list(written, 2)}` : '',
    runs.length ? `ran ${runs.length} command${runs.length > 1 ? 's' : ''}` : '',
    reads.length && !written.length ? `read ${list(reads, 2)}` : '',
    tools.length && !written.length && !runs.length && !reads.length
      ? `used ${list([...new Set(tools.map((t) => t.name))])}`
      : '',
  ].filter(Boolean);
  const headline = request
    ? firstSentence(request, 120)
    : answer
      ? firstSentence(answer, 120)
      : activity.join('; ').replace(/^./, (c) => c.toUpperCase());
  const firstFixed = fixed[0];
  const fixedCause = firstFixed?.message ? errorName(firstFixed.message) : undefined;
  const outcome = fixed.length
    ? `fixed ${fixedCause ?? 'failing run'}${written.length ? ` in ${list(written, 2)}` : ''}`
    : failures.length
      ? `${failures.length} unresolved error${failures.length > 1 ? 's' : ''}`
      : written.length && request
        ? `edited ${list(written, 2)}`
        : '';
  const title = outcome ? `${headline.replace(/[.!?]+$/, '')} — ${outcome}` : headline;

  const summary: string[] = [];
  if (request) summary.push(`Request: ${truncate(request, 800)}`);
  if (answer)
    summary.push(
      `Outcome: ${discovery ? firstSentence(answer, 300) : truncate(oneLine(answer), 1500)}`,
    );
  if (!request && !answer) summary.push(sentence(headline));
  for (const failure of failures) {
    const files = editedFiles(failure);
    summary.push(
      `Error: ${failureHeadline(failure)} — ${failure.fixedBy ? `fixed${files.length ? ` by editing ${list(files, 3)}` : ''}` : 'unresolved at the end of the turn'}.`,
    );
  }
  if (!turn.end) summary.push('(The turn had not ended when this was written.)');
  if (summary.length === 1 && request && tools.length === 0) summary.push('No tools were used.');

  const facts = [
    ...(reads.length ? [`Read: ${reads.join(', ')}`] : []),
    ...edits.map((edit) => `Modified ${describeEdit(edit, inErrors.has(edit))}`),
    ...runs.map((run) => `Ran ${run}`),
  ];
  const commands = tools.flatMap((t) => (t.command ? [t.command] : [])).join(' ');
  const concepts = [
    ...new Set([
      ...[...commands.matchAll(RUNNERS)].map((m) => m[1]!),
      ...failures
        .flatMap((f) => (f.message ? [errorName(f.message)] : []))
        .filter((n): n is string => n !== undefined),
      ...(runs.some((run) => isTestCommand(run)) ? ['tests'] : []),
      ...(fixed.length ? ['bug-fix'] : []),
    ]),
  ];

  const drafts: RecordDraft[] = [
    {
      type: 'session_summary',
      title,
      summary: summary.join('\n'),
      facts,
      concepts,
      files: [...written, ...reads],
      sources: turn.events.map((event) => event.event_id),
    },
    ...failures.map((failure) => errorDraft(failure, promptId)),
  ];
  if (discovery) {
    const mentioned = [...written, ...reads].filter((file) =>
      answer.includes(file.split('/').at(-1)!),
    );
    drafts.push({
      type: 'discovery',
      title: firstSentence(answer, 200),
      summary: answer,
      facts: [],
      concepts: concepts.filter((c) => c !== 'tests'),
      files: mentioned.length ? mentioned : written,
      sources: [
        ...(promptId ? [promptId] : []),
        ...edits.map((e) => e.eventId),
        turn.end!.event_id,
      ],
    });
  }
  return drafts;
}
