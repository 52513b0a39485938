import { bodyText, LIMITS } from '@kiro-learn/schema';
import { codeChanges } from '../code-changes.js';
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
import { digestAnswer, isInformationFree, leadSentence } from './prose.js';
import { readToolUse, type ToolUse } from './tool-use.js';
import type { Turn } from './turns.js';

// A turn's records without a model (summarizeTurn). Long because its rules (a failure and
// its fix, edits, the answer) read one turn's tool uses together and weigh each other:
// parsing command output (output.ts), prose (prose.ts) and tool uses (tool-use.ts) are
// modules of their own.

/** A command that failed (once or more), and what happened next in the turn. */
interface Failure {
  key: string;
  first: ToolUse;
  /** How many runs of it failed in the turn (a command retried as it was is one failure). */
  attempts: number;
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
  return tool.command ? commandKey(tool.command) : `${tool.name} ${tool.files.join(',')}`;
}

/**
 * What a command runs, without what varies between retries of it: `cd dir &&` prefixes,
 * environment assignments, output plumbing (`2>&1`, `| tail -20`), flags and their
 * values, quoted arguments (commit messages). `git commit -m "…"` retried with another
 * message is the same command; `mix test a_test.exs` and `mix test` are the same suite.
 */
export function commandKey(command: string): string {
  let text = command
    .replace(/<<-?\s*['"]?(\w+)['"]?[\s\S]*?\n\s*\1\b/g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"|'[^']*'|\$\([^)]*\)/g, ' ');
  text = oneLine(text);
  const steps = text
    .split(/\s*(?:&&|;|\|\|)\s*/)
    .filter((step) => step !== '' && !/^(?:cd|source|\.|export|set)\b/.test(step));
  text = (steps.at(-1) ?? text).split(/\s*\|\s*/)[0] ?? text;
  const words = text
    .replace(/\d?>&?\d?\s*\S*/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !word.startsWith('-') && !/^\w+=/.test(word));
  // `npm run build`, `pnpm exec vitest`, `python -m pytest`: the third word names the command.
  const size = /^(?:run|exec|x|dlx|-m)$/.test(words[1] ?? '') ? 3 : 2;
  return words.slice(0, size).join(' ') || oneLine(command);
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

/**
 * Collects the failed commands of a turn in order and pairs each with the run that later
 * succeeded. Repeated failures of one command (or with one error message) are one failure.
 * A failed read, edit or search is the agent finding its way (a wrong path, a stale edit),
 * not something the project learned: it makes no failure.
 */
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
      if (tool.action !== 'command') return;
      const output = tool.output;
      const message = errorMessage(output);
      const again = failures.find(
        (failure) => failure.key === key || (message !== undefined && failure.message === message),
      );
      if (again) {
        again.attempts++;
        // Failing again after a fix that seemed to work: open again.
        if (again.fixedBy) {
          again.fixedBy = undefined;
          open.push(again);
        }
        return;
      }
      const failure: Failure = {
        key,
        first: tool,
        attempts: 1,
        firstIndex: index,
        message,
        tests: failingTests(output),
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

/** Commands whose failure says something about the project: tests, builds, checks, hooks. */
const CHECK_COMMAND =
  /\b(?:build|compile|tsc|lint|eslint|biome|prettier|credo|dialyzer|format|check|typecheck|mypy|ruff|flake8|clippy|commit|migrate|deploy|install|bundle|gradle|mvn|make|cmake)\b/i;

/**
 * A failure worth its own error record: a test, build or check that failed, or any
 * failure an edit in the turn fixed. An exploratory command that failed (a `grep` with no
 * match, a `git push` without upstream) is one line of the turn summary, no more.
 */
function significant(failure: Failure): boolean {
  const command = failure.first.command ?? '';
  return (
    isTestCommand(command) ||
    CHECK_COMMAND.test(command) ||
    failure.tests.length > 0 ||
    (failure.fixedBy !== undefined && failure.edits.length > 0)
  );
}

/** Project files a command names (`mix test test/a_test.exs`, `node scripts/build.js`). */
function commandFiles(command: string): string[] {
  return [
    ...new Set(
      (command.match(/(?<=^|\s)(?:\.\/)?[\w@-]+(?:\/[\w.@-]+)*\.[A-Za-z][\w]{0,5}(?=\s|$)/g) ?? [])
        .map((path) => path.replace(/^\.\//, ''))
        .filter(
          (path) =>
            path.includes('/') ||
            /\.(?:[jt]sx?|mjs|cjs|py|rb|exs?|go|rs|java|kt|sh|json|ya?ml|toml|sql)$/.test(path),
        ),
    ),
  ];
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
  if (failure.attempts > 1) summary.push(`It failed ${failure.attempts} times in the turn.`);
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
    files: [
      ...testFiles(failure.tests),
      ...first.files,
      ...commandFiles(first.command ?? ''),
      ...editFiles,
    ],
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
  /\b(vitest|jest|mocha|pytest|cargo|go|npm|pnpm|yarn|bun|deno|make|gradle|mvn|tsc|eslint|biome|docker|git|mix)\b/g;

/** What the turns before this one leave to it (the built-in extractor tracks them per session). */
export interface TurnContext {
  /**
   * The request of this turn when its prompt came in an earlier batch (the turn was cut by
   * an extraction before it ended).
   */
  request?: string;
  /** The event id of that prompt. */
  requestEventId?: string;
  /** Requests of question-only turns just before this one, which this turn answers. */
  questions?: readonly string[];
  /**
   * The request of the session's turn before this one: what a prompt naming nothing of its
   * own (`ok do it`, `continue`) is about.
   */
  previousRequest?: string;
  /**
   * The prompt event of the session's turn before this one. A turn with no prompt of its own
   * continues it (the agent's answer after a compaction, an empty stop before it): one turn,
   * so its record is a part of that turn's record.
   */
  previousRequestEventId?: string;
}

/** What one turn yields: its records, or the question it only asked (carried to the next turn). */
export interface TurnRecords {
  drafts: RecordDraft[];
  /** Set when the turn learned nothing (no tool use, no answer): its informative request. */
  question?: string;
}

const TITLE_MIN_WORDS = 4;
const titleWords = (title: string) => (title.match(/[\p{L}\p{N}][\p{L}\p{N}._/-]*/gu) ?? []).length;

/**
 * The records one turn deserves, each saying what the others do not:
 * - a `session_summary` (when the turn learned something: it used a tool, or the agent
 *   answered): a title naming the subject and the outcome, the request, the answer's lead,
 *   each error in one line; as facts the files read and modified, the commands and their
 *   verdicts, and the answer's points (its markdown reduced to plain lines);
 * - an `error` per distinct failed command (retries of one command are one error): the
 *   failing run, the message, the failing tests, the fix with its code and the run that
 *   confirmed it.
 * A turn with no tool use and no answer makes no record: its request is returned as the
 * question the next turn answers.
 */
export function summarizeTurn(turn: Turn, context: TurnContext = {}): TurnRecords {
  const tools = turn.events
    .map(readToolUse)
    .filter((tool): tool is ToolUse => tool !== undefined && tool.action !== 'internal');
  const prompt = turn.prompt ? oneLine(bodyText(turn.prompt.body)) : '';
  const answer = turn.end ? bodyText(turn.end.body).trim() : '';
  const digest = digestAnswer(answer);
  const ownRequest = prompt && !isInformationFree(prompt) ? prompt : '';
  const carried = context.request && !isInformationFree(context.request) ? context.request : '';
  const asked = (context.questions ?? []).filter((q) => !isInformationFree(q));
  // A `continue` or `ok do it` is about what was asked before it.
  const previous =
    !ownRequest && context.previousRequest && !isInformationFree(context.previousRequest)
      ? context.previousRequest
      : '';
  const request = ownRequest || carried || asked.at(-1) || previous;
  // The request it answers is also one of its questions (searched apart, weighted lower).
  const questions = [
    ...new Set([...asked, ...(prompt && !ownRequest && request ? [request] : [])]),
  ];
  const reads = [...new Set(tools.filter((t) => t.action === 'read').flatMap((t) => t.files))];
  const edits = tools.filter((t) => t.action === 'write' && t.ok !== false);
  const written = [...new Set(edits.flatMap((t) => t.files))];
  const ran = tools.some((t) => t.action === 'command');
  // Nothing changed, ran or read in the project, and nothing said: nothing learned (a search
  // that found nothing, a look at the web with no answer, the agent's own bookkeeping).
  if (!written.length && !ran && !reads.length && !digest.substantive) {
    return ownRequest ? { drafts: [], question: ownRequest } : { drafts: [] };
  }
  const failures = findFailures(tools);
  const fixed = failures.filter((failure) => failure.fixedBy);
  // What the error records describe in full, so the turn summary only names it.
  const inErrors = new Set(
    failures.flatMap((f) => [f.first, ...f.edits, ...(f.fixedBy ? [f.fixedBy] : [])]),
  );
  const runs = runLines(tools, inErrors);
  const promptId = turn.prompt?.event_id;
  const turnId = promptId ?? context.requestEventId ?? context.previousRequestEventId;

  const others = [
    ...new Set(
      tools.filter((t) => t.action === 'search' || t.action === 'other').map((t) => t.name),
    ),
  ];
  const activity = [
    written.length ? `Edited ${list(written, 2)}` : '',
    runs.length ? `ran ${runs.length} command${runs.length > 1 ? 's' : ''}` : '',
    reads.length && !written.length ? `read ${list(reads, 2)}` : '',
    !written.length && !runs.length && !reads.length && others.length ? `used ${list(others)}` : '',
  ]
    .filter(Boolean)
    .join('; ')
    .replace(/^./, (c) => c.toUpperCase());
  const firstFixed = fixed[0];
  const fixedCause = firstFixed?.message ? errorName(firstFixed.message) : undefined;
  const change = fixed.length
    ? `fixed ${fixedCause ?? 'failing run'}${written.length ? ` in ${list(written, 2)}` : ''}`
    : failures.length
      ? `${failures.length} unresolved error${failures.length > 1 ? 's' : ''}`
      : written.length
        ? `edited ${list(written, 2)}`
        : '';
  const lead = digest.lead ? leadSentence(digest.lead, 140) : '';
  const subject = request ? leadSentence(request, 120) : lead || activity;
  // An activity title already says what was edited.
  const outcome =
    (subject === activity && !failures.length ? '' : change) ||
    (request && lead ? leadSentence(lead, 100) : '') ||
    (request ? activity.replace(/^./, (c) => c.toLowerCase()) : '');
  let title = outcome && outcome !== subject ? `${subject} — ${outcome}` : subject;
  if (titleWords(title) < TITLE_MIN_WORDS) {
    const more = [activity, written.length ? '' : list([...reads, ...written], 2)].find(
      (part) => part && !title.includes(part),
    );
    title = more ? `${title} — ${more}` : `${title} (${turn.end ? 'answered' : 'in progress'})`;
  }

  const summary: string[] = [];
  if (request) summary.push(`Request: ${truncate(request, 800)}`);
  if (lead) summary.push(`Outcome: ${digest.lead}`);
  if (!request && !lead) summary.push(sentence(activity || title));
  for (const failure of failures) {
    const files = editedFiles(failure);
    summary.push(
      `Error: ${failureHeadline(failure)} — ${failure.fixedBy ? `fixed${files.length ? ` by editing ${list(files, 3)}` : ''}` : 'unresolved at the end of the turn'}.`,
    );
  }

  const facts = [
    ...(reads.length ? [`Read: ${list(reads, 12)}`] : []),
    ...edits.map((edit) => `Modified ${describeEdit(edit, inErrors.has(edit))}`),
    ...runs.map((run) => `Ran ${run}`),
    ...digest.facts,
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

  const code = codeChanges(
    edits.map((edit) => ({ files: edit.files, ...edit.change })),
    tools.flatMap((t) => (t.command && t.ok !== false ? [t.command] : [])),
  );
  const drafts: RecordDraft[] = [
    {
      type: 'session_summary',
      title,
      summary: summary.join('\n'),
      facts,
      concepts,
      files: [...written, ...reads],
      sources: turn.events.map((event) => event.event_id),
      ...(questions.length ? { questions } : {}),
      ...(turnId ? { turn: turnId } : {}),
      ...(code ? { code } : {}),
    },
    ...failures.filter(significant).map((failure) => ({
      ...errorDraft(failure, promptId),
      ...(turnId ? { turn: turnId } : {}),
    })),
  ];
  return { drafts };
}
