import type { MemoryRecord } from '@kiro-learn/schema';
import { STOP_WORDS } from '@kiro-learn/storage';
import { memoised } from './memo.js';
import { wordPairs } from './overlap.js';
import { splitParts, stem } from './terms.js';

/**
 * What a record says beyond a prompt. Two rules read it:
 *
 * - **Never the prompt itself.** A record made from the same or a nearly identical earlier
 *   prompt, that carries no outcome, is the question coming back as "memory": the
 *   request-only turn records of earlier versions ("Request: which file did we change? No
 *   tools were used."), an LLM's "The user asked which file changed". Recognised by what
 *   it says, not by where it came from, so records of every extractor and every version
 *   are covered: no fact, no file, and next to nothing the prompt does not already say.
 * - **Nothing that says nothing.** A record with no fact, no file and at most one word of
 *   its own ("continue", "Done.") informs no prompt; nor does a question-only record of any
 *   prompt (`Request: …` with no outcome, no fact and no file).
 * - **Memory restated is not memory.** An agent that answers from the context it was given
 *   makes a turn whose record is the question plus what an older record said. Asked again,
 *   that record ranks first (it has the question's words and the answer's) while it holds
 *   less than the record it restates: the older record takes its place.
 */

/**
 * The words extractors wrap a request in, which say nothing about the project: "Request:",
 * "No tools were used.", "(The turn had not ended when this was written.)", "The user
 * asked …".
 */
const FRAMING = new Set(
  (
    'request requested requests outcome tool tools used turn ended written user asked ask asks ' +
    'asking question questions wanted wants answer answered yet session summary prompt agent ' +
    'assistant said says inquired wondered wonders whether still'
  )
    .split(' ')
    .map(stem),
);

/** Conversational words that carry no subject (what `yes`, `ok do it`, `continue` are made of). */
const FILLER = new Set(
  (
    'yes yeah yep yup no nope sure fine great good nice cool perfect awesome right done lgtm ' +
    'agreed agree go ahead continue proceed next again keep going carry try sounds looks let lets ' +
    'first second third last option options same thing stuff something anything everything ' +
    'really actually maybe well oh ah hmm wait now go'
  ).split(' '),
);

/** Stemmed content words of a text: letters and digits, identifiers split, stop words out. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_$.-]+/gu)) {
    for (const part of splitParts(match[0])) {
      if (part.length < 2 || STOP_WORDS.has(part)) continue;
      out.add(stem(part));
    }
  }
  return out;
}

/** Content words of a text without the words extractors frame a request with. */
export function ownStems(text: string): Set<string> {
  const words = contentStems(text);
  for (const word of FRAMING) words.delete(word);
  return words;
}

// Stems of a record object, kept while the object lives: one retrieval compares each
// candidate with the others.
const stemsOf = new WeakMap<MemoryRecord, Set<string>>();

/** The record's own words, without the words extractors frame a request with. */
function recordStems(record: MemoryRecord): Set<string> {
  let stems = stemsOf.get(record);
  if (!stems) {
    const text = [record.title, record.summary, ...record.facts, ...record.concepts].join('\n');
    stems = ownStemsOfText(text);
    stemsOf.set(record, stems);
  }
  return stems;
}

// And by text: each prompt fetches its candidates afresh (new objects), mostly the same
// records as the prompts before.
const ownStemsOfText = memoised(ownStems, 2_000, 8_192);

/** True for a record with facts or files: what a turn did, which a question alone never has. */
function hasOutcomeFields(record: MemoryRecord): boolean {
  return record.facts.length > 0 || record.files_touched.length > 0;
}

/**
 * Whether a record tells the reader nothing: no fact, no file, and at most one word of its
 * own beyond the framing ("continue", "Done.", "Request: 1").
 */
export function saysNothing(record: MemoryRecord): boolean {
  return !hasOutcomeFields(record) && recordStems(record).size <= 1;
}

/**
 * Whether a record only restates this prompt: it has no fact and no file, and nearly all
 * of its words are the prompt's (at most one word, or a fifth of them, are new), while it
 * holds at least half of the prompt's words (the same question, not a tiny record that
 * happens to share a word). A record that answered the question says more than it, and
 * stays.
 */
export function echoes(record: MemoryRecord, promptStems: ReadonlySet<string>): boolean {
  if (hasOutcomeFields(record) || promptStems.size === 0) return false;
  const own = recordStems(record);
  let shared = 0;
  for (const word of own) if (promptStems.has(word)) shared++;
  const novel = own.size - shared;
  return novel <= Math.max(1, own.size / 5) && shared >= promptStems.size / 2;
}

/**
 * Whether a record only asks: no fact, no file, and a `Request:` line with no `Outcome:`
 * (what earlier versions of the built-in extractor made of a turn that did nothing).
 */
export function onlyAsks(record: MemoryRecord): boolean {
  return (
    !hasOutcomeFields(record) &&
    /^Request:/m.test(record.summary) &&
    !/^(Outcome|Error):/m.test(record.summary)
  );
}

/** What a record says it was asked: its `Request:` lines and its questions. */
function requestText(record: MemoryRecord): string {
  const asked = [...record.summary.matchAll(/^Request:(.*)$/gm)].map((m) => m[1] ?? '');
  return [...asked, ...(record.questions ?? [])].join('\n');
}

/** Every word of a text, lower-cased and stemmed (stop words kept: pairs are made of them). */
function allStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word) out.add(stem(word));
  return out;
}

/**
 * Whether `record` restates `older`: a turn record (it says what it was asked) that touched
 * no file, came later, is not a link of `older`'s chain, and whose answer `older` already
 * says: at least four fifths of its word pairs (beyond pairs made only of the request's,
 * the prompt's and framing words) are `older`'s, in the same order. Pairs, not words: "use
 * Redis" is news beside "chose Postgres over Redis", and so is "to 60" beside "to 40".
 */
export function restates(
  record: MemoryRecord,
  older: MemoryRecord,
  promptStems: ReadonlySet<string>,
): boolean {
  if (record.files_touched.length > 0 || record.record_id === older.record_id) return false;
  if (older.superseded_by !== undefined || record.superseded_by === older.record_id) return false;
  if (!(Date.parse(older.created_at) < Date.parse(record.created_at))) return false;
  const request = requestText(record);
  if (request.trim() === '') return false;
  const known = allStems(request);
  for (const word of promptStems) known.add(word);
  for (const word of FRAMING) known.add(word);
  const answer = [record.title, record.summary.replace(/^Request:.*$/gm, ''), ...record.facts].join(
    '\n',
  );
  const theirs = wordPairs([older.title, older.summary, ...older.facts].join('\n'));
  let said = 0;
  let fresh = 0;
  // Pairs within a line, a sentence or a title's part: none joins the request a title
  // starts with (`<request> — <answer>`) to the answer after it.
  const pairs = new Set(
    answer.split(/\n|\s[—–-]\s|[.!?;]\s/).flatMap((part) => [...wordPairs(part)]),
  );
  for (const pair of pairs) {
    const [a, b] = pair.split(' ');
    if (b === undefined || (known.has(a!) && known.has(b))) continue;
    if (theirs.has(pair)) said++;
    else fresh++;
  }
  return said >= 2 && said >= 4 * fresh;
}

/**
 * Whether a prompt carries no subject of its own (`yes`, `2`, `ok do it`, `continue`): no
 * word left once stop words, conversational filler and short numbers are out. Such a
 * prompt answers the agent's last message; memory has nothing to add to it.
 */
export function informationFree(prompt: string): boolean {
  for (const match of prompt.toLowerCase().matchAll(/[\p{L}\p{N}_$./-]+/gu)) {
    const token = match[0].replace(/^[./-]+|[./-]+$/g, '');
    if (token === '') continue;
    if (/^\d{1,3}$/.test(token)) continue;
    if (token.length < 2 || STOP_WORDS.has(token) || FILLER.has(token)) continue;
    return false;
  }
  return true;
}
