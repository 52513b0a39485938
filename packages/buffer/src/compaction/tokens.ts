import { bodyText, type Event } from '@kiro-learn/schema';

/** Counts the tokens of a piece of prompt text. Pluggable: pass a real tokenizer if you have one. */
export type TokenCounter = (text: string) => number;

/**
 * The default counter: ASCII characters / 4 + other characters / 1.5 (English and code
 * run about 4 characters a token; CJK and symbols nearer one or two).
 */
export const estimateTokens: TokenCounter = (text) => {
  let ascii = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 128) ascii++;
  return Math.ceil(ascii / 4 + (text.length - ascii) / 1.5);
};

/** An event's share of a rendered prompt: its body text plus the framing overhead. */
export function eventTokens(event: Event, count: TokenCounter, overhead: number): number {
  return count(bodyText(event.body)) + overhead;
}
