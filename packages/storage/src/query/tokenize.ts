/**
 * Prompt tokenizing for search. Splits the way FTS5's unicode61 tokenizer does (letters,
 * marks and digits are token characters; everything else, `_` included, separates), so
 * each word maps to one index term.
 */

/** English stop words: frequent, and never what a prompt is about. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before ' +
    'being below between both but by can could did do does doing done down during each few for ' +
    'from further get got had has have having he her here hers herself him himself his how i if ' +
    'in into is it its itself just let me more most my myself no nor not now of off on once ' +
    'only or other our ours ourselves out over own please same she should so some such than ' +
    'that the their theirs them themselves then there these they this those through to too ' +
    'under until up us very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves also may might must shall would could can cannot ' +
    'want need like make use using used one two via etc ok okay thanks thank hey hi hello'
  ).split(' '),
);

const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;
/** Longer runs are not words (base64, hashes): they would only bloat the query. */
const MAX_TOKEN_LENGTH = 64;

/**
 * Lower-cased, de-duplicated words of `text` in order of first appearance, without stop
 * words and one-character tokens. Lone surrogates and control characters just separate.
 */
export function tokenize(text: string, maxTokens = 4096): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0].toLowerCase();
    if (word.length < 2 || word.length > MAX_TOKEN_LENGTH || STOP_WORDS.has(word)) continue;
    seen.add(word);
    if (seen.size >= maxTokens) break;
  }
  return [...seen];
}

/** FTS5 phrase literal: double quotes doubled, the whole wrapped in quotes. */
export function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** LIKE pattern literal with `\` as the escape character (`%`, `_`, `\` match themselves). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
