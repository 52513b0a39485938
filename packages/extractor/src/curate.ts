/**
 * What happens to new records next to the project's existing ones, without a model:
 * a new record that nearly duplicates one is merged into it, and a new record on the same
 * subject as an older one that says the older no longer holds (a changed value, a
 * replacement, an error since fixed) supersedes it. The older record is kept and linked
 * (`superseded_by`, `superseded_at`, `superseded_reason`); nothing is deleted.
 *
 * One module (past 400 lines) because merging and superseding judge the same pairs of
 * records with the same word sets and identifiers, and one decides what the other sees.
 */
import { LIMITS, type MemoryRecord } from '@kiro-learn/schema';
import { codeChangesOf, codeSupersession, mergeCodeChanges } from './code-changes.js';
import { truncate } from './text.js';

export interface CurationInput {
  /** Records just extracted, oldest first. */
  fresh: readonly MemoryRecord[];
  /** Current records of the same project that may be about the same things. */
  existing: readonly MemoryRecord[];
  /** Records an extractor said a new record replaces (new record id → older ids). */
  named?: ReadonlyMap<string, readonly string[]>;
  /** Time of the merge or supersession; now when omitted. */
  now?: string;
  /** Fold near duplicates into the older record (default true); false keeps every new record. */
  merge?: boolean;
  /**
   * Records put into the agent's context for each turn (by its prompt event id; the
   * session start's included): a new turn record that only restates one of these is no
   * record of its own. A record with no turn of its own (an LLM's) counts every turn's.
   * Without it, nothing is dropped as a restatement (a turn only restates what it was given).
   */
  injected?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface Supersession {
  recordId: string;
  supersededBy: string;
  reason: string;
}

export interface Curation {
  /**
   * What to store: the new records that were not merged away, and the existing records that
   * changed (merged into, or superseded), each whole (they replace the stored ones).
   */
  records: MemoryRecord[];
  /** Existing (or earlier new) records a new one was merged into. */
  merged: Array<{ into: string; from: string }>;
  superseded: Supersession[];
}

/** Two records of one project whose words overlap this much say the same thing. */
export const NEAR_DUPLICATE = 0.8;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_]*/gu;
const STOP = new Set(
  (
    'a an and are as at be but by did do does for from had has have in into is it its of on or ' +
    'that the then this to was were will with request outcome error modified ran read edited ' +
    'fixed passed failed succeeded turn through via over under about after before onto per ' +
    'each every all any some so not no only also just there here which what when where who how ' +
    'we our us they them their you your my can could should would may might must'
  ).split(' '),
);

function wordSet(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1 && !STOP.has(w)),
  );
}

const textOf = (record: MemoryRecord) => [record.title, record.summary, ...record.facts].join('\n');

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 0 : both / union;
}

/** Word overlap of two records' own text (title, summary, facts). */
export function similarity(a: MemoryRecord, b: MemoryRecord): number {
  return jaccard(wordSet(textOf(a)), wordSet(textOf(b)));
}

/**
 * Two records that say the same thing: their words overlap by NEAR_DUPLICATE, or their
 * title and summary are all but the same (only the details differ).
 */
export function isNearDuplicate(a: MemoryRecord, b: MemoryRecord): boolean {
  if (a.observation_type !== b.observation_type || a.namespace !== b.namespace) return false;
  if (similarity(a, b) >= NEAR_DUPLICATE) return true;
  // Every word counted too (the short words of long file lists and commands among them).
  const all = (r: MemoryRecord) =>
    new Set(
      (
        textOf(r)
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? []
      ).filter((w) => w.length > 1),
    );
  if (jaccard(all(a), all(b)) >= NEAR_DUPLICATE) return true;
  const head = (r: MemoryRecord) => wordSet(`${r.title}\n${r.summary}`);
  return jaccard(head(a), head(b)) >= 0.9;
}

/** Names in code and config: `queue.backend`, `REDIS_URL`, `parseDate`, `src/a.ts`. */
const IDENTIFIER =
  /\b(?:[A-Za-z_][\w-]*(?:[./:][\w-]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|[A-Z0-9]+(?:_[A-Z0-9]+)+|[a-z0-9]+(?:_[a-z0-9]+)+)\b/g;

/** Names a record states (not its file list, which sharedFiles compares on its own). */
function identifiers(record: MemoryRecord): Set<string> {
  const found = new Set<string>();
  const files = new Set(record.files_touched.map((file) => file.toLowerCase()));
  for (const match of statedText(record).matchAll(IDENTIFIER)) {
    const id = match[0].toLowerCase();
    if (id.length < 4 || /^\d/.test(id) || /^(?:e\.g|i\.e|etc)\b/.test(id)) continue;
    if (files.has(id) || /\.[a-z]{1,5}$/.test(id)) continue;
    found.add(id);
  }
  return found;
}

/** Words that say a fact replaced an earlier one. */
const CHANGE_CUE =
  /\b(?:instead(?: of)?|no longer|not anymore|replac(?:ed|es|ing)|switch(?:ed|es|ing)? (?:from|to|over)|mov(?:ed|es|ing) (?:from|to)|migrat(?:ed|es|ing) (?:from|to)|chang(?:ed|es|ing) (?:from|to)|renamed|deprecated|superseded|rather than|from now on|went from|upgraded (?:to|from)|downgraded|(?:is|are|was) now|now (?:use[sd]?|using|is|are|set|runs?|points?|lives?|defaults?|requires?|listens?|stores?|reads?|writes?|calls?|returns?|goes|sends?))\b/i;

/** A setting and its value: `timeout is 30 s`, `port: 5173`, `ttl: 300`, `retries = 3`. */
const KEY_VALUE =
  /\b([a-z][\w.-]{2,40}?)(?:\s+(?:is|are|was|of|at|to|set|now|from|=|:)|\s*[:=])+\s*(\d{1,6}(?:\.\d+)?\s?(?:ms|s|sec|seconds?|min|minutes?|h|hours?|d|days?|kb|mb|gb|kib|mib|gib|%|x)?)(?!\w|\.\d)/gi;

/** Words before a number that name a count or an outcome, not a setting. */
const NOT_A_SETTING = new Set(
  (
    'exit code line lines passed failed failing tests test events records commands files ' +
    'attempts times more step steps item items total errors warnings issue issues pr version ' +
    'v page pages row rows column columns bytes chars characters tokens count number status ' +
    'task tasks phase stage day days hour hours minute minutes top first last'
  ).split(' '),
);

/** The unit of a value (`30s` → `s`, `20mb` → `mb`, `300` → ``); a word value has none. */
function unitOf(value: string): string {
  return /^\d/.test(value) ? value.replace(/^[\d.]+/, '') : 'word';
}

/** A fact that is one setting: `LOG_LEVEL: info`, `engine = postgres`, `node: 22`. */
const SETTING_FACT = /^\s*([A-Za-z][\w.-]{1,60})\s*[:=]\s*([^\s,;]{1,40})(?:\s+[a-z%]{1,8})?\s*$/;

function settings(text: string, facts: readonly string[] = []): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(KEY_VALUE)) {
    const key = match[1]!.toLowerCase();
    if (STOP.has(key) || NOT_A_SETTING.has(key) || /^\d/.test(key)) continue;
    found.set(key, match[2]!.toLowerCase().replace(/\s+/g, ''));
  }
  for (const fact of facts) {
    const match = SETTING_FACT.exec(fact);
    if (!match) continue;
    const key = match[1]!.toLowerCase();
    if (NOT_A_SETTING.has(key) || found.has(key)) continue;
    found.set(key, match[2]!.toLowerCase());
  }
  return found;
}

/** What a change says it replaced: `from X to`, `instead of X`, `replaced X`, `no longer … X`. */
const REPLACED = [
  /\bfrom\s+([\w.@/+-]+(?:\s+[\w.@/+-]+)?)\s+to\b/gi,
  /\binstead of\s+([\w.@/+-]+(?:\s+[\w.@/+-]+)?)/gi,
  /\brather than\s+([\w.@/+-]+(?:\s+[\w.@/+-]+)?)/gi,
  /\breplac(?:ed|es|ing)\s+(?:the\s+)?([\w.@/+-]+(?:\s+[\w.@/+-]+)?)\s+(?:with|by)\b/gi,
  /\b([\w.@/+-]+)\s+(?:was|is|were|has been|got)\s+(?:replaced|retired|dropped|removed|deprecated)\b/gi,
  /\b(?:dropped|retired|removed)\s+(?:the\s+)?([\w.@/+-]+)/gi,
  /\bno longer\s+(?:use[sd]?|using|call[s]?|run[s]?|in|on|with|through)?\s*(?:the\s+)?([\w.@/+-]+)/gi,
];

/** Names a newer record says it replaced (each a word, lower-cased, no filler). */
function replacedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const pattern of REPLACED) {
    for (const match of text.matchAll(pattern)) {
      for (const word of match[1]!.toLowerCase().split(/\s+/)) {
        const name = word.replace(/^[^\w]+|[^\w]+$/g, '');
        if ((name.length >= 3 || /\d/.test(name)) && !STOP.has(name) && !GENERIC.has(name)) {
          names.add(name);
        }
      }
    }
  }
  return names;
}

/** Words of change itself, which say nothing of what changed. */
const CHANGE_WORDS = new Set(
  'moved move moves switched switch migrated migrate replaced replace instead longer now use uses used using went changed change new old back since'.split(
    ' ',
  ),
);

/** Words too general to name the thing replaced. */
const GENERIC = new Set(
  'old new previous current one default files file code setup version now here there them our their its'.split(
    ' ',
  ),
);

/** A record's facts without the built-in extractor's activity lines (`Read: a.ts`, `Ran …`). */
const statedFacts = (record: MemoryRecord) =>
  record.facts.filter(
    (fact) => !/^(?:Read: |Modified |Ran |Fix: |Attempted fix: |Failing test: )/.test(fact),
  );

/**
 * What a record states, as opposed to what it logs: its title, summary and facts without
 * code (backticked text) and without the built-in extractor's activity lines (files read,
 * edits, commands run), which say what was done, not what is true now.
 */
function statedText(record: MemoryRecord): string {
  return [record.title, record.summary, ...statedFacts(record)]
    .join('\n')
    .replace(/`[^`\n]*`/g, ' ');
}

/** A text's lower-cased word pairs, in order. */
function wordPairs(text: string): Set<string> {
  const words = text.toLowerCase().match(WORD) ?? [];
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) pairs.add(`${words[i - 1]} ${words[i]}`);
  return pairs;
}

/** What a turn record says it was asked: its `Request:` lines, then its questions. */
function requestsOf(record: MemoryRecord): string[] {
  const asked = [...record.summary.matchAll(/^Request:(.*)$/gm)].map((m) => (m[1] ?? '').trim());
  return [...new Set([...asked, ...(record.questions ?? [])].filter((q) => q !== ''))];
}

/**
 * A text cut where one thought ends (a line, a sentence, a title's ` — `), so no word pair
 * joins the request a title starts with to the answer after it.
 */
const SEGMENT = /\n|\s[—–-]\s|[.!?;]\s/;

/**
 * A turn that touched no file and answered with what the older record says (an agent
 * answering from the memory it was given): four fifths of its answer's word pairs, beyond
 * its request, are the older record's. Its words of change are the older record's own, so
 * it retires nothing (asked again, the restatement would rank above the record it copied),
 * and it is no record of its own (see curateRecords).
 */
export function restatesOlder(newer: MemoryRecord, older: MemoryRecord): boolean {
  if (newer.files_touched.length > 0) return false;
  const answer = [newer.title, newer.summary.replace(/^Request:.*$/gm, ''), ...newer.facts]
    .join('\n')
    .replace(/^(?:Outcome|Answer):/gm, '');
  // Every word of the request, the one-letter ones too (`company A`).
  const request = new Set(requestsOf(newer).join('\n').toLowerCase().match(WORD) ?? []);
  const theirs = wordPairs(textOf(older));
  let said = 0;
  let fresh = 0;
  const seen = new Set<string>();
  for (const segment of answer.split(SEGMENT)) {
    for (const pair of wordPairs(segment)) {
      if (seen.has(pair)) continue;
      seen.add(pair);
      const [a, b] = pair.split(' ') as [string, string];
      if ((request.has(a) || STOP.has(a)) && (request.has(b) || STOP.has(b))) continue;
      if (theirs.has(pair)) said++;
      else fresh++;
    }
  }
  return said >= 2 && said >= 4 * fresh;
}

/** Values an edit set, as the built-in extractor writes it: replaced `x` with `value`. */
function setValues(record: MemoryRecord): string[] {
  return [...textOf(record).matchAll(/replaced `[^`]*` with `([^`]{2,60})`/g)].map((m) => m[1]!);
}

/** Values an edit replaced: replaced `value` with `y`. */
function replacedValues(record: MemoryRecord): string[] {
  return [...textOf(record).matchAll(/replaced `([^`]{2,60})` with `/g)].map((m) => m[1]!);
}

/** A short line of configuration (`ttl: 300`, `TIMEOUT=30`, `port = 5173`), not code at large. */
const SETTING_LINE = /^\s*[\w.-]+\s*[:=]\s*\S.{0,40}$/;

const isUnresolvedError = (record: MemoryRecord) =>
  record.observation_type === 'error' && /— unresolved$/.test(record.title);
const headlineOf = (record: MemoryRecord) => record.title.replace(/ — (?:fixed.*|unresolved)$/, '');

/** The turn a record is (a part of) the record of, when its extractor said. */
const turnOf = (record: MemoryRecord) => {
  const id = record.metadata?.turn_prompt_id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Why `newer` retires `older`, or undefined when it does not. An error is retired by the
 * same error fixed since. Other records, when both are about one subject (a file or two
 * names in common, or a title of the same words), by a newer record that says the older no
 * longer holds: a setting with another value, an edit that changed the value the older one
 * set, or an explicit change ("instead", "no longer", "replaced", "is now") in what it
 * states (not in the code or the commands it logs). Parts of one turn never retire each other.
 */
export function supersessionReason(newer: MemoryRecord, older: MemoryRecord): string | undefined {
  if (newer.namespace !== older.namespace || newer.record_id === older.record_id) return undefined;
  if (newer.strategy === 'compaction' || older.strategy === 'compaction') return undefined;
  if (newer.created_at < older.created_at) return undefined;
  if (restatesOlder(newer, older)) return undefined;
  const turn = turnOf(newer);
  if (turn !== undefined && turn === turnOf(older)) return undefined;
  if (older.observation_type === 'error') {
    return isUnresolvedError(older) &&
      headlineOf(newer) === headlineOf(older) &&
      !isUnresolvedError(newer)
      ? `the same error, ${newer.observation_type === 'error' ? 'fixed' : 'resolved'} since`
      : undefined;
  }
  if (newer.observation_type === 'error') return undefined;
  // What the newer turn did to the code the older one wrote (the built-in extractor keeps it).
  const byCode = codeSupersession(newer, older);
  if (byCode) return byCode;
  const sharedFiles = newer.files_touched.filter((f) => older.files_touched.includes(f));
  const olderIds = identifiers(older);
  const sharedIds = [...identifiers(newer)].filter((id) => olderIds.has(id));
  const titleOverlap = jaccard(wordSet(newer.title), wordSet(older.title));
  const said = statedText(newer);
  const overlap = jaccard(wordSet(said), wordSet(statedText(older)));
  const subject = sharedFiles[0]
    ? `same file ${sharedFiles[0]}`
    : sharedIds[0]
      ? `same subject ${sharedIds[0]}`
      : 'same subject';
  // A value the older record states, changed: the same setting (and more in common than its
  // name), in the same unit.
  const before = settings(statedText(older), statedFacts(older));
  const olderTitle = wordSet(older.title);
  for (const [key, value] of settings(said, statedFacts(newer))) {
    const old = before.get(key);
    if (old === undefined || old === value || unitOf(old) !== unitOf(value)) continue;
    const titled = [...wordSet(newer.title)].some(
      (w) => olderTitle.has(w) && !key.split(/[^a-z0-9]+/).includes(w),
    );
    if (sharedFiles.length > 0 || sharedIds.length > 0 || titled) {
      return `${subject}; ${key} changed: ${old} → ${value}`;
    }
  }
  // What it says it replaced is what the older record is about.
  const olderHead = wordSet(`${older.title}\n${older.summary}`);
  const replaced = [...replacedNames(said)].find((name) => olderHead.has(name));
  if (replaced) {
    // And one more word in common, not a word of change: what it was used for.
    const newerHead = wordSet(`${newer.title}\n${newer.summary}`);
    const common = [...olderHead].filter(
      (w) => w !== replaced && newerHead.has(w) && !CHANGE_WORDS.has(w),
    );
    if (sharedFiles.length > 0 || common.length > 0) return `${subject}; replaces ${replaced}`;
  }
  const sameSubject =
    (sharedFiles.length > 0 && overlap >= 0.1) || sharedIds.length >= 2 || titleOverlap >= 0.5;
  if (!sameSubject) return undefined;
  // An edit that changed the setting an older edit set.
  const set = new Set(setValues(older).filter((value) => SETTING_LINE.test(value)));
  const changed = replacedValues(newer).find((value) => set.has(value));
  if (changed) return `${subject}; changed ${truncate(changed, 60)}`;
  // An explicit change, about the same thing (not just the same file).
  const cue = CHANGE_CUE.exec(said);
  if (cue && (overlap >= 0.2 || titleOverlap >= 0.3 || sharedIds.length >= 2)) {
    return `${subject}; says “${cue[0].toLowerCase()}”`;
  }
  return undefined;
}

const union = (a: readonly string[], b: readonly string[], max: number = LIMITS.listItems) =>
  [...new Set([...a, ...b])].slice(0, max);

/**
 * Two parts of one turn's record (a long turn extracted batch by batch): one turn summary,
 * or one error (the same failure, its state updated).
 */
export function isSameTurnPart(newer: MemoryRecord, older: MemoryRecord): boolean {
  const turn = turnOf(newer);
  if (turn === undefined || turn !== turnOf(older)) return false;
  if (newer.observation_type !== older.observation_type || newer.namespace !== older.namespace) {
    return false;
  }
  return newer.observation_type !== 'error' || headlineOf(newer) === headlineOf(older);
}

/**
 * `from` folded into `into`: its facts, files, concepts, questions and sources added.
 * With `newer`, `from` is the later part of one turn: its title and summary (which know how
 * the turn went on) replace the older ones.
 */
function mergeInto(
  into: MemoryRecord,
  from: MemoryRecord,
  now: string,
  newer = false,
): MemoryRecord {
  const merged: MemoryRecord = {
    ...into,
    ...(newer ? { title: from.title } : {}),
    summary: newer || from.summary.length > into.summary.length ? from.summary : into.summary,
    facts: union(into.facts, from.facts),
    concepts: union(into.concepts, from.concepts),
    files_touched: union(into.files_touched, from.files_touched),
    source_event_ids: union(into.source_event_ids, from.source_event_ids, 10_000),
    updated_at: now,
  };
  const questions = union(into.questions ?? [], from.questions ?? []);
  if (questions.length > 0) merged.questions = questions;
  const code = mergeCodeChanges(codeChangesOf(into), codeChangesOf(from));
  if (code) merged.metadata = { ...into.metadata, code: { ...code } };
  return merged;
}

/**
 * Merges near duplicates and links supersessions among new records and the project's
 * current ones. A new record nearly duplicating an existing one (or an earlier new one)
 * of the same type is folded into it; a turn record that only restates one that was put
 * into the agent's context for its turn (`injected`: the agent answered from the memory it
 * was given) is no record of its own: it is dropped, reported as merged into the record it
 * restates, which stays as it was. Otherwise each older record it retires is marked
 * superseded by it (the rules of supersessionReason, or named by the extractor).
 */
export function curateRecords(input: CurationInput): Curation {
  const now = input.now ?? new Date().toISOString();
  const changed = new Map<string, MemoryRecord>();
  const kept: MemoryRecord[] = [];
  const merged: Curation['merged'] = [];
  const superseded: Supersession[] = [];
  const current = (record: MemoryRecord) => changed.get(record.record_id) ?? record;
  const candidates = () =>
    [...input.existing.map(current), ...kept].filter((r) => r.superseded_by === undefined);

  const everyInjected = new Set([...(input.injected?.values() ?? [])].flatMap((ids) => [...ids]));
  /** What the agent was given for the turn a new record is of. */
  const givenFor = (fresh: MemoryRecord): ReadonlySet<string> => {
    const turn = turnOf(fresh);
    return turn === undefined ? everyInjected : (input.injected?.get(turn) ?? new Set());
  };

  for (const fresh of input.fresh) {
    const part =
      input.merge === false
        ? undefined
        : candidates().find((older) => isSameTurnPart(fresh, older));
    // A turn whose answer is a record it was given (no file touched): asked again, not
    // learned. Before near duplicates: folding it into a short record it copied would
    // rewrite that.
    const given = givenFor(fresh);
    const restated =
      part || input.merge === false || given.size === 0 || requestsOf(fresh).length === 0
        ? undefined
        : candidates().find(
            (older) =>
              given.has(older.record_id) &&
              older.namespace === fresh.namespace &&
              restatesOlder(fresh, older),
          );
    const twin =
      part ??
      (input.merge === false || restated
        ? undefined
        : candidates().find(
            (older) => older.strategy !== 'compaction' && isNearDuplicate(fresh, older),
          ));
    if (restated) {
      // Left as it is: a restatement shows the record was given and used, not that it was
      // the right answer (so it earns no question), and rewriting it would only cost it its
      // vector until it is embedded again.
      merged.push({ into: restated.record_id, from: fresh.record_id });
      continue;
    }
    if (twin) {
      const into = mergeInto(twin, fresh, now, twin === part);
      const index = kept.findIndex((r) => r.record_id === into.record_id);
      if (index >= 0) kept[index] = into;
      else changed.set(into.record_id, into);
      merged.push({ into: into.record_id, from: fresh.record_id });
      continue;
    }
    const named = new Set(input.named?.get(fresh.record_id) ?? []);
    for (const older of candidates()) {
      if (older.namespace !== fresh.namespace) continue;
      const reason = named.has(older.record_id)
        ? 'named by the extractor as replaced'
        : supersessionReason(fresh, older);
      if (!reason) continue;
      const link = {
        superseded_by: fresh.record_id,
        superseded_at: now,
        superseded_reason: truncate(reason, LIMITS.supersededReasonLength),
      };
      const index = kept.findIndex((r) => r.record_id === older.record_id);
      if (index >= 0) kept[index] = { ...kept[index]!, ...link };
      else changed.set(older.record_id, { ...older, ...link });
      superseded.push({ recordId: older.record_id, supersededBy: fresh.record_id, reason });
    }
    kept.push(fresh);
  }
  return { records: [...changed.values(), ...kept], merged, superseded };
}
