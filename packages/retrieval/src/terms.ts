/**
 * What a prompt names beyond its words: file paths and code identifiers, which BM25 alone
 * handles badly (`src/auth/session.ts` is four common tokens to FTS5). The ranker boosts
 * records whose files or concepts match these.
 */
import { memoised } from './memo.js';

export interface PromptTerms {
  /** Path-like tokens, lower-cased, without surrounding punctuation. */
  paths: string[];
  /** camelCase, snake_case, kebab-case and dotted identifiers, lower-cased, as typed. */
  identifiers: string[];
  /** Stems of every word, identifier part and path part, for concept matching. */
  stems: Set<string>;
}

const TOKEN_SPLIT = /[\s"'`()[\]{}<>,;!?]+/;
// Every pattern below runs on each token of a prompt, and a pasted blob is one token of up
// to 16k characters: none may backtrack over the token from every position (`[a-z]{2,}x$`
// costs n² steps there; `[a-z]{2}x$` matches the same tokens in n).
const HAS_EXTENSION = /[a-z0-9_-]{2}\.[a-z][a-z0-9]{0,7}$/i;
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:[.-][A-Za-z_$][\w$]*)*$/;
const CAMEL = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;

const MAX_STEMS = 20_000;
const MAX_CACHED_LENGTH = 64;

/** Splits an identifier or path into lower-case word parts: `parseHTTPRequest_v2` → parse, http, request, v2. */
export const splitParts: (text: string) => readonly string[] = memoised(
  partsOf,
  MAX_STEMS,
  MAX_CACHED_LENGTH,
);

function partsOf(text: string): readonly string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((part) => part.length > 0);
}

/**
 * A deliberately small suffix stripper: it only has to map a word's everyday variants
 * (cache, caches, cached, caching) to one key, never to produce a real stem.
 */
export const stem: (word: string) => string = memoised(stemOf, MAX_STEMS, MAX_CACHED_LENGTH);

const RULES: ReadonlyArray<readonly [string, string]> = [
  ['ies', 'y'],
  ['ing', ''],
  ['ers', ''],
  ['er', ''],
  ['ed', ''],
  ['es', ''],
  ['s', ''],
];

function stemOf(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3) return w;
  let out = w;
  for (const [suffix, replacement] of RULES) {
    if (out.endsWith(suffix) && !(suffix === 's' && out.endsWith('ss'))) {
      const candidate = out.slice(0, -suffix.length) + replacement;
      if (candidate.length >= 3) {
        out = candidate;
        break;
      }
    }
  }
  if (out.endsWith('e') && out.length > 3) out = out.slice(0, -1);
  return out;
}

function isPath(token: string): boolean {
  if (token.includes('://')) return false;
  return (token.includes('/') && /[A-Za-z]/.test(token)) || HAS_EXTENSION.test(token);
}

function isIdentifier(token: string): boolean {
  if (!IDENTIFIER.test(token)) return false;
  return CAMEL.test(token) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(token) || /[a-z]\.[a-z]/i.test(token);
}

/** The token without the dots and colons that end it (a sentence's, a label's). */
function withoutTrailingDots(token: string): string {
  let end = token.length;
  while (end > 0 && (token[end - 1] === '.' || token[end - 1] === ':')) end--;
  return token.slice(0, end);
}

/** Reads the paths, identifiers and word stems out of a prompt. */
export function analysePrompt(prompt: string): PromptTerms {
  const paths = new Set<string>();
  const identifiers = new Set<string>();
  const stems = new Set<string>();
  for (const raw of prompt.split(TOKEN_SPLIT)) {
    const token = withoutTrailingDots(raw);
    if (token.length < 2) continue;
    const parts = splitParts(token);
    for (const part of parts) stems.add(stem(part));
    if (isPath(token)) paths.add(token.toLowerCase().replace(/^\.\//, ''));
    else if (isIdentifier(token)) identifiers.add(token.toLowerCase());
  }
  return { paths: [...paths], identifiers: [...identifiers], stems };
}
