/**
 * What came back to each replayed prompt, measured the way the issue "What comes back"
 * judges it: records of the current session the agent still had in its window (made from
 * the session's events since its last compaction), records that only repeat the prompt,
 * records with no fact and no file, context for prompts that carry no information of their
 * own, characters injected (per prompt and at session start), and, across sessions, whether
 * a prompt whose turn went on to touch files an earlier session's record covers got that
 * record in its first five.
 *
 * Judged from what the collector stored (the session's events, every record) and from the
 * transcript itself, never from retrieval's own rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event, MemoryRecord } from '@kiro-learn/schema';
import { isQuestionOnly } from './metrics.ts';
import type { ReplayedTranscript, TranscriptSource } from './replay.ts';
import { transcriptToHooks } from './transcript.ts';
import type { World } from './world.ts';

/** A prompt with no subject of its own: `1`, `yes`, `continue`, `ok do it`, `go ahead`. */
const FILLER = new Set(
  (
    'yes y yeah yep yup no n nope ok okay k sure fine good great nice cool perfect thanks thank ' +
    'you please pls continue proceed go ahead do it that this one next again keep going lgtm ' +
    'sounds looks let lets us try option the a an and both all done right correct exactly'
  ).split(' '),
);

export function isInformationFree(prompt: string): boolean {
  const words = prompt.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length > 6) return false;
  return words.every((w) => FILLER.has(w.replace(/'s$/, '')) || /^\d{1,3}$/.test(w));
}

export interface BackFigures {
  prompts: number;
  /** Prompts that got any context. */
  withContext: number;
  /** Mean characters injected per prompt (prompts with nothing count as 0). */
  meanChars: number;
  /** Most characters one prompt got. */
  maxChars: number;
  informationFree: number;
  /** Information-free prompts that got context anyway. */
  informationFreeWithContext: number;
  injected: number;
  /** Injected records made from the session's own events since its last compaction. */
  currentSessionInWindow: number;
  /** Injected records made from the session's own events before its last compaction. */
  currentSessionCompacted: number;
  /** Injected records that only repeat the prompt (fewer than three words of their own). */
  echoes: number;
  noFactNoFile: number;
  /** Prompts whose turn touched files an earlier session's record covers. */
  filePrompts: number;
  /** … of which the context held such a record among its first five. */
  filePromptsFound: number;
  /**
   * … of which the agent had such a record: among this context's first five, or given to an
   * earlier prompt of the session and still in its window (not compacted away). Retrieval
   * does not give a record the agent still holds again, so a `continue` after the prompt that
   * brought the record is not a miss.
   */
  filePromptsHeld: number;
  /** Characters the session start printed. */
  sessionStartChars: number;
}

async function sessionEvents(world: World, sessionId: string): Promise<Event[]> {
  const out: Event[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await world.get<{ items: Event[]; next_cursor?: string | null }>(
      `/v1/events?session_id=${encodeURIComponent(sessionId)}&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    out.push(...page.items);
    if (!page.next_cursor || page.items.length === 0) return out;
    cursor = page.next_cursor;
  }
}

/**
 * From the transcript: the project files each turn's tool calls named (relative to the
 * project), and the turns after which the session was compacted.
 */
function fromTranscript(source: TranscriptSource, project: string, root: string) {
  const transcript = transcriptToHooks(readFileSync(source.file, 'utf8'), {
    cwd: project,
    transcriptPath: join(root, 'transcripts', `${source.name}.jsonl`),
  });
  const files = new Map<number, Set<string>>();
  const compactedAfter = transcript.calls
    .filter((call) => call.event === 'SessionStart' && call.payload.source === 'compact')
    .map((call) => call.turn);
  for (const call of transcript.calls) {
    if (call.event !== 'PostToolUse' && call.event !== 'PostToolUseFailure') continue;
    const input = (call.payload.tool_input ?? {}) as Record<string, unknown>;
    for (const key of ['file_path', 'path', 'notebook_path']) {
      const value = input[key];
      if (typeof value !== 'string' || !value.startsWith(`${project}/`)) continue;
      const set = files.get(call.turn) ?? new Set<string>();
      set.add(value.slice(project.length + 1));
      files.set(call.turn, set);
    }
  }
  return { files, compactedAfter };
}

const time = (iso: string) => Date.parse(iso);

/**
 * Figures for one replayed transcript; `earlier` are the records earlier transcripts of
 * its project stored. Call while the world's collector still runs.
 */
export async function backFigures(
  world: World,
  source: TranscriptSource,
  done: ReplayedTranscript,
  earlier: readonly MemoryRecord[],
  all: ReadonlyMap<string, MemoryRecord>,
): Promise<BackFigures> {
  const events = await sessionEvents(world, done.sessionId);
  const eventTime = new Map(events.map((e) => [e.event_id, time(e.valid_time)]));
  // Prompts in the order they were asked: a context's record is the session's own only if
  // made from events before its prompt (extraction may merge later turns into it).
  const asked = events
    .filter((e) => e.kind === 'prompt')
    .map((e) => time(e.valid_time))
    .sort((a, b) => a - b);
  // One per compaction: the SessionStart that follows it (the PreCompact before it records
  // a compaction note too, which `compactedAfter` does not count).
  const compactions = events
    .filter((e) => {
      if (e.kind !== 'note' || e.body.type !== 'json') return false;
      const data = e.body.data as { source?: unknown; hook?: unknown } | null;
      return (
        data?.hook === 'SessionStart' && (data.source === 'compact' || data.source === 'clear')
      );
    })
    .map((e) => time(e.valid_time))
    .sort((a, b) => a - b);
  const { files, compactedAfter } = fromTranscript(
    source,
    world.project(source.project),
    world.root,
  );
  const lengths = done.contexts.map((c) => c.context.length);
  const f: BackFigures = {
    ...noFigures(),
    prompts: done.contexts.length,
    withContext: lengths.filter((n) => n > 0).length,
    meanChars: lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 0,
    maxChars: Math.max(0, ...lengths),
    sessionStartChars: done.sessionStart.length,
  };
  // Records given to this session's prompts, with the compactions before they were given.
  const given = new Map<string, number>();
  for (const [i, c] of done.contexts.entries()) {
    if (isInformationFree(c.prompt)) {
      f.informationFree++;
      if (c.context.trim() !== '') f.informationFreeWithContext++;
    }
    // The window starts at the last compaction before this turn.
    const compacted = compactedAfter.filter((turn) => turn < c.turn).length;
    const windowStart = compacted === 0 ? 0 : (compactions[compacted - 1] ?? 0);
    const then = new Map(c.records.map((r) => [r.record_id, r]));
    for (const id of c.recordIds) {
      // The record as the prompt got it (later extractions may have merged more into it).
      const record = then.get(id) ?? all.get(id);
      f.injected++;
      if (!record) continue;
      const before = asked.length === done.contexts.length ? asked[i]! : Number.POSITIVE_INFINITY;
      const own = record.source_event_ids
        .map((e) => eventTime.get(e))
        .filter((t): t is number => t !== undefined && t < before);
      if (own.length > 0) {
        if (own.some((t) => t >= windowStart)) f.currentSessionInWindow++;
        else f.currentSessionCompacted++;
      }
      if (isQuestionOnly(record, [c.prompt])) f.echoes++;
      if (record.facts.length === 0 && record.files_touched.length === 0) f.noFactNoFile++;
    }
    const touched = files.get(c.turn);
    if (touched && touched.size > 0) {
      const covering = earlier.filter((r) => r.files_touched.some((file) => touched.has(file)));
      if (covering.length > 0) {
        f.filePrompts++;
        const top = new Set(c.recordIds.slice(0, 5));
        if (covering.some((r) => top.has(r.record_id))) f.filePromptsFound++;
        if (covering.some((r) => top.has(r.record_id) || given.get(r.record_id) === compacted)) {
          f.filePromptsHeld++;
        }
      }
    }
    for (const id of c.recordIds) given.set(id, compacted);
  }
  return f;
}

/** Figures of nothing: every count zero. */
function noFigures(): BackFigures {
  return {
    prompts: 0,
    withContext: 0,
    meanChars: 0,
    maxChars: 0,
    informationFree: 0,
    informationFreeWithContext: 0,
    injected: 0,
    currentSessionInWindow: 0,
    currentSessionCompacted: 0,
    echoes: 0,
    noFactNoFile: 0,
    filePrompts: 0,
    filePromptsFound: 0,
    filePromptsHeld: 0,
    sessionStartChars: 0,
  };
}

/** Sums figures (means weighted by prompts; session-start characters: the mean per session). */
export function sumBack(list: readonly BackFigures[]): BackFigures {
  const out = noFigures();
  for (const f of list) {
    for (const key of Object.keys(out) as Array<keyof BackFigures>) {
      if (key === 'maxChars') out.maxChars = Math.max(out.maxChars, f.maxChars);
      else if (key === 'meanChars') out.meanChars += f.meanChars * f.prompts;
      else out[key] += f[key];
    }
  }
  out.meanChars = out.prompts ? out.meanChars / out.prompts : 0;
  // Per session, not summed: what one session starts with.
  out.sessionStartChars = list.length ? out.sessionStartChars / list.length : 0;
  return out;
}
