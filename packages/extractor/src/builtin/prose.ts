/**
 * Reading what people and agents wrote: the agent's closing message as plain sentences and
 * facts (never its headings, tables or code blocks), and whether a prompt or an answer
 * carries any information at all (`continue`, `yes`, `Done.`, `Perfect!`).
 */
import { oneLine, truncate } from '../text.js';

/** Words that carry no subject of their own in a prompt or an answer. */
const FILLER_WORDS = new Set(
  (
    'a about again all alright also am an and any are as at be been but by can could did do does ' +
    'done doing for from go going good great have i if in is it its just keep let lets me more my ' +
    'next no nope now of ok okay on or perfect please proceed right same so sounds still sure ' +
    'thank thanks that the then there these this those to try up us want we what with would yeah ' +
    'yep yes you your continue carry ahead looks lgtm nice cool awesome excellent fine ' +
    'implementation work working one two three option 1 2 3 4 5 y n'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_.-]*/gu;

/** Words of a text, lower-cased, without the trailing dots of sentence ends. */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/[.'-]+$/, ''));
}

/** Words that say what the text is about (not `continue`, `ok`, `please`, `the`). */
export function contentWords(text: string): string[] {
  return wordsOf(text).filter((w) => w.length > 1 && !FILLER_WORDS.has(w));
}

/**
 * A prompt that names nothing of its own: `continue`, `yes`, `2`, `ok do it`, `go ahead`.
 * What it asks for is what the turn before it was about.
 */
export function isInformationFree(text: string): boolean {
  return contentWords(text).length === 0;
}

/** Opening words of an answer that say nothing: `Done.`, `Perfect!`, `Great, all set.` */
const FILLER_SENTENCE =
  /^(?:(?:all\s+)?done|perfect|great|excellent|awesome|nice|good|sure|ok(?:ay)?|got it|understood|certainly|of course|absolutely|you're right|you are right|right|yes|no problem|all set|all good|all pushed|finished|complete(?:d)?|success(?:ful)?|thanks?(?: you)?)\b[\s\S]{0,20}$/i;

/** A sentence that only acknowledges (`Done.`, `Perfect! All set.`) or says under three things. */
export function isFillerSentence(sentence: string): boolean {
  const plain = sentence.replace(/[*_`#>!.,:;—–-]+/g, ' ').trim();
  return plain === '' || FILLER_SENTENCE.test(plain) || contentWords(plain).length < 2;
}

/** A line of markdown as prose: its text, and whether it was a list item or table row. */
export interface PlainLine {
  text: string;
  kind: 'prose' | 'item' | 'row';
}

/**
 * Markdown reduced to prose lines: code blocks, table header rows and rules dropped, table
 * rows turned into `cell: cell` text, headings, quotes, list markers and emphasis removed,
 * links to their text. Nothing of the result renders as structure.
 */
export function plainLines(markdown: string): PlainLine[] {
  const out: PlainLine[] = [];
  let fence: string | undefined;
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const opens = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opens && opens[1]![0] === fence[0] && opens[1]!.length >= fence.length) fence = undefined;
      continue;
    }
    if (opens) {
      fence = opens[1]!;
      continue;
    }
    if (/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line)) {
      // A table rule: the row above it was the header.
      if (out.at(-1)?.kind === 'row') out.pop();
      continue;
    }
    if (/^\s*([-*_])\s*(\1\s*){2,}$/.test(line)) continue; // horizontal rule
    if (/^\s{0,3}#{1,6}\s/.test(line)) continue; // a heading names a part, it says nothing
    let text = line;
    let kind: PlainLine['kind'] = 'prose';
    if (/^\s*\|.*\|\s*$/.test(text)) {
      kind = 'row';
      text = text
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim())
        .filter(Boolean)
        .join(': ');
    } else if (/^\s*(?:[-*+•]|\d+[.)])\s+/.test(text)) kind = 'item';
    text = text
      .replace(/^\s*>+\s?/, '')
      .replace(/^\s*(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,:;!?]|$)/g, '$1$2')
      .replace(
        /(?:\u2705|\u274C|\u26A0\uFE0F?|\u{1F389}|\u2728|\u{1F680}|\u{1F4DD}|\u{1F527}|\u{1F449}|\u2713|\u2717)+\s*/gu,
        '',
      )
      .trim();
    if (text !== '') out.push({ text, kind });
  }
  return out;
}

/** Splits prose into sentences (keeps `e.g.`, `v1.2`, `src/a.ts` whole). */
export function sentencesOf(line: string): string[] {
  return line
    .split(/(?<=[.!?])\s+(?=[A-Z0-9`"'(])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface AnswerDigest {
  /** The first informative sentences, as one plain paragraph (empty when there are none). */
  lead: string;
  /** The rest as facts: one informative line or sentence each, plain text. */
  facts: string[];
  /** Whether the answer says anything beyond acknowledging. */
  substantive: boolean;
}

/**
 * The agent's closing message as a lead and facts, never pasted: markdown structure
 * dropped, acknowledgements (`Done.`, `Perfect!`) skipped, each fact one line.
 */
export function digestAnswer(
  answer: string,
  options: { leadChars?: number; maxFacts?: number; factChars?: number } = {},
): AnswerDigest {
  const leadChars = options.leadChars ?? 300;
  const maxFacts = options.maxFacts ?? 8;
  const factChars = options.factChars ?? 240;
  const lead: string[] = [];
  const points: string[] = [];
  let used = 0;
  for (const line of plainLines(answer)) {
    const sentences = sentencesOf(line.text).filter((sentence) => !isFillerSentence(sentence));
    if (sentences.length === 0) continue;
    // The lead is the first informative prose (not an intro to a list: `Here's what I did:`);
    // list items and table rows are points.
    if (line.kind === 'prose' && points.length === 0 && lead.length < 2) {
      while (sentences[0]?.endsWith(':')) sentences.shift();
      while (sentences.length > 0 && lead.length < 2) {
        const next = sentences[0]!;
        if (lead.length > 0 && used + next.length > leadChars) break;
        lead.push(next);
        used += next.length + 1;
        sentences.shift();
      }
      if (sentences.length === 0) continue;
    }
    if (line.kind === 'prose') points.push(...sentences);
    else points.push(sentences.join(' '));
  }
  // An answer that is all list: its first point leads.
  if (lead.length === 0 && points.length > 0) lead.push(points.shift()!);
  const seen = new Set<string>();
  const facts: string[] = [];
  for (const point of points) {
    const fact = oneLine(point).replace(/:$/, '');
    const key = fact.toLowerCase();
    if (seen.has(key) || fact.length < 12) continue;
    seen.add(key);
    facts.push(truncate(fact, factChars));
    if (facts.length >= maxFacts) break;
  }
  const words = contentWords([...lead, ...points].join(' ')).length;
  return {
    lead: truncate(oneLine(lead.join(' ')), leadChars),
    facts,
    substantive: words >= 4,
  };
}

/** First sentence of prose, cut to `max` (no trailing punctuation kept for titles). */
export function leadSentence(text: string, max = 120): string {
  const first = sentencesOf(oneLine(text))[0] ?? oneLine(text);
  return truncate(first.replace(/[.:!]+$/, ''), max);
}
