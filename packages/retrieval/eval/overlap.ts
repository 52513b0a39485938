/**
 * Content words a prompt shares with the record that answers it: the measure of how much
 * a set leans on word matching. Independent of every ranker (its own stop words and
 * stemmer), so a ranker change never moves it.
 *
 * A text's content words: lower-cased, split on everything but letters and digits, without
 * one-character tokens and stop words, each lightly stemmed so that a word's everyday
 * variants (reject, rejects, rejected, rejecting) count as one.
 */

/** Function words and the filler people type around a question. */
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any anymore are aren as at be
  because been before being below between both but by can cannot could couldn did didn do
  does doesn doing don done down during each else even ever every few for from further get
  gets getting got had hasn has have haven having he her here hers herself him himself his
  how i if im in into is isn it its itself ive just keep keeps kept know let like ll made
  make makes me might more most much must my myself need needs no nor not now of off ok
  okay on once one only or other our ours ourselves out over own per please pls re really
  same say says see seems shall she should so some something somehow someone such than
  thanks that the their theirs them themselves then there these they thing things this
  those though through to too under until up us ve very want was wasn way we were weren
  what whats when where which while who whom whose why will with won would wouldn yet you your
  yours yourself`.split(/\s+/),
);

/** Strips plural, past and -ing endings, then a doubled final consonant or a final e. */
export function stemWord(word: string): string {
  let w = word;
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith('ies') || w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  let stripped = false;
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      stripped = true;
      break;
    }
  }
  if (stripped && /([^aeiouyslz])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The stemmed content words of a text. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (token.length < 2 || STOP_WORDS.has(token)) continue;
    out.add(stemWord(token));
  }
  return out;
}

/** The fields of a record a reader (or a ranker) can match a prompt against. */
export interface RecordText {
  title: string;
  summary: string;
  facts: readonly string[];
  concepts: readonly string[];
  files: readonly string[];
}

export function recordWords(r: RecordText): Set<string> {
  return contentWords([r.title, r.summary, ...r.facts, ...r.concepts, ...r.files].join('\n'));
}

/**
 * The content words a prompt shares with the records that answer it: with the one it
 * shares most with, so "at most one" holds for every answering record.
 */
export function sharedWords(prompt: string, answers: readonly RecordText[]): string[] {
  const words = contentWords(prompt);
  let most: string[] = [];
  for (const r of answers) {
    const rw = recordWords(r);
    const shared = [...words].filter((w) => rw.has(w));
    if (shared.length > most.length) most = shared;
  }
  return most;
}
