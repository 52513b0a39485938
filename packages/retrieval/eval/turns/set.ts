import { type LabelledPrompt, type LabelledRecord, readData } from '../labelled.ts';

/**
 * The turns set: multi-turn conversations with a coding agent (and two with a personal
 * assistant), stored the way the collector stores them: one short record per answered turn,
 * its request and the agent's reply. What makes it hard is what real conversations do: the
 * reply that holds the answer often never names its topic ("ok do it" → "Done, it is 30 s
 * now"), because the topic was in the turn before; two turns ask the same thing and only
 * one got the answer; a question hinges on when something happened.
 *
 * Written without looking at any ranker. Each record carries the request of the turn before
 * it in the same session as `questions` (the field retrieval indexes below the record's own
 * text), as the built-in extractor does; a turn with a request and no reply makes no record,
 * and its request goes to the next turn's `questions` (see "What gets stored").
 *
 * Each project is a data file, `<project>.json`: what it is (`about`), its `sessions` (the
 * turns prompts ask about), `more` sessions (turns no prompt asks about, on the same
 * subjects: the look-alikes a ranker must see past, and the short turns every real session
 * has, "run the tests", "commit it"), and its prompts as rows (TurnsPromptRow).
 */

/** The conversations' projects, one namespace each. */
export type TurnsProject =
  | 'ticker' // Go service streaming market prices over websockets
  | 'allotment' // Django site where a community garden books plots
  | 'pantry' // a personal assistant: meals, groceries, a child's allergy, a budget
  | 'voyage' // a personal assistant: a family trip and life around it, with dates
  | 'darkroom' // Swift iOS photo editor
  | 'beacon'; // on-call chat for a Kafka and ClickHouse analytics stack

/**
 * What a prompt tests (several tags may apply):
 * - `reply`: the answer sits in a reply whose own turn never names the prompt's subject
 *   (the subject was in the turn before);
 * - `sibling`: another turn asks the same thing, and only the labelled one answers it;
 * - `date`: the prompt says when (yesterday, last week, in March, on the 14th);
 * - `paraphrase`: in other words than the turn;
 * - `exact`: quotes a name, a number, an error or a file of the answer;
 * - `chat`: a personal conversation, not code.
 */
export type TurnsTag = 'reply' | 'sibling' | 'date' | 'paraphrase' | 'exact' | 'chat';

export const TURNS_TAGS: readonly TurnsTag[] = [
  'reply',
  'sibling',
  'date',
  'paraphrase',
  'exact',
  'chat',
];

/** One turn as the agent lived it. */
export interface Turn {
  /** The key prompts point at (turns without one get `<session>-<n>`). */
  key?: string;
  /** What the user typed. */
  ask: string;
  /** The agent's reply; none: a question-only turn (no record, see above). */
  reply?: string;
  /** Files the turn read or changed. */
  files?: string[];
  /** Commands the turn ran, with their verdict (`pnpm test passed`). */
  ran?: string[];
}

/** A session: turns one after another on one day. */
export interface Session {
  id: string;
  /** Days before the eval's clock. */
  daysAgo: number;
  turns: Turn[];
}

export interface TurnsRecord extends LabelledRecord {
  project: TurnsProject;
  questions: string[];
  /** Session the turn belongs to (the eval's current-session rules read it). */
  session: string;
}

export interface TurnsPrompt extends LabelledPrompt {
  project: TurnsProject;
  tags: TurnsTag[];
}

function firstSentence(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const end = /[.?!](?:\s|$)/.exec(line);
  const cut = end && end.index < max ? line.slice(0, end.index + 1) : line.slice(0, max);
  return cut.replace(/[.!?]+$/, '');
}

/**
 * The records of a project's sessions: one per answered turn, titled by its request (by its
 * reply when the request is a few words), `Request:` / `Outcome:` in the summary, files and
 * commands as facts, the previous request(s) of the session as `questions`.
 */
export function sessions(project: TurnsProject, list: Session[]): TurnsRecord[] {
  const out: TurnsRecord[] = [];
  for (const session of list) {
    let previous: string[] = [];
    session.turns.forEach((turn, i) => {
      if (turn.reply === undefined) {
        previous = [...previous, turn.ask];
        return;
      }
      const words = turn.ask.split(/\s+/).filter(Boolean).length;
      const title = firstSentence(words >= 4 ? turn.ask : turn.reply);
      const files = turn.files ?? [];
      out.push({
        key: turn.key ?? `${session.id}-${i + 1}`,
        project,
        type: 'session_summary',
        title,
        summary: `Request: ${turn.ask}\nOutcome: ${turn.reply}`,
        facts: [
          ...(files.length > 0 ? [`Files: ${files.join(', ')}`] : []),
          ...(turn.ran ?? []).map((run) => `Ran ${run}`),
        ],
        concepts: [],
        files,
        daysAgo: session.daysAgo,
        questions: previous,
        session: session.id,
      });
      previous = [turn.ask];
    });
  }
  return out;
}

/** [tags, prompt, relevant keys] */
export type TurnsPromptRow = [TurnsTag[], string, string[]];

export function prompts(project: TurnsProject, rows: TurnsPromptRow[]): TurnsPrompt[] {
  return rows.map(([tags, prompt, relevant]) => ({ project, tags, prompt, relevant }));
}

/** One project's file (`<project>.json`). */
interface ProjectFile {
  about: string;
  sessions: Session[];
  more: Session[];
  prompts: TurnsPromptRow[];
}

/** A project's records (its `more` sessions' first) and prompts, read from its data file. */
export function loadProject(project: TurnsProject): {
  records: TurnsRecord[];
  prompts: TurnsPrompt[];
} {
  const file = readData<ProjectFile>(import.meta.url, project);
  return {
    records: sessions(project, [...file.more, ...file.sessions]),
    prompts: prompts(project, file.prompts),
  };
}
