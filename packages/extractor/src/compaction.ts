import type { Event } from '@kiro-learn/schema';
import { frameEvent } from './frame.js';
import { escapeXml, unescapeXml } from './xml.js';

/** One summarizer call of the buffer's compaction. Structurally the buffer's SummarizeRequest. */
export interface CompactionRequest {
  namespace: string;
  /** `incremental`: fold events into the previous prose. `full_rewrite`: rebuild the prose from these events. */
  mode: 'incremental' | 'full_rewrite';
  /** The previous summary's prose; absent on a full rewrite. */
  previousSummary?: string;
  /** The chain's facts so far, key → value. */
  facts: Readonly<Record<string, string>>;
  /** The events to fold in, oldest first. */
  events: readonly Event[];
}

/** A summary. Structurally the buffer's SummarizeReply. */
export interface CompactionReply {
  title?: string;
  summary: string;
  facts: Record<string, string>;
  obsolete: string[];
  summarizer?: string;
}

/** What the summarizer is asked to do. */
export const COMPACTION_INSTRUCTIONS = `You are kiro-learn's compaction summarizer. A coding session's event backlog is too long for one prompt, so it is summarized incrementally, oldest first. Below is a <compaction_request>: the previous summary (when there is one), the facts carried so far as key/value pairs, and the next events.

Reply with XML only, exactly one block:
<compaction_summary>
  <title>short and specific</title>
  <summary>the previous summary updated with the new events (or, when there is none, a summary of these events): what was done, decided, found, and what is still open; at most 3000 characters</summary>
  <facts><fact key="stable short key">current value</fact></facts>
  <obsolete><key>a key that no longer holds</key></obsolete>
</compaction_summary>
Facts are stable knowledge (a file's role, a command that builds or tests, a decision, a version, a setting). Repeat every previous fact you keep, with its current value; put a key in <obsolete> only when it no longer holds; never invent facts the events do not support. Escape &, < and > in text. Do not use tools. Do not add any other text.`;

/** The whole summarizer prompt; each tool field is capped at `maxFieldChars`. */
export function buildCompactionPrompt(request: CompactionRequest, maxFieldChars: number): string {
  const facts = Object.entries(request.facts).map(
    ([key, value]) => `<fact key="${escapeXml(key)}">${escapeXml(value)}</fact>`,
  );
  return [
    COMPACTION_INSTRUCTIONS,
    '',
    `<compaction_request mode="${request.mode}">`,
    ...(request.previousSummary
      ? [`<previous_summary>${escapeXml(request.previousSummary)}</previous_summary>`]
      : []),
    `<facts>${facts.join('\n')}</facts>`,
    '<events>',
    ...request.events.map((event) => frameEvent(event, maxFieldChars)),
    '</events>',
    '</compaction_request>',
    '',
  ].join('\n');
}

/** What a summarizer reply meant. */
export type ParsedCompaction =
  | { kind: 'summary'; reply: CompactionReply }
  | { kind: 'garbage'; reason: string };

const inner = (body: string, tag: string) =>
  new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(body)?.[1];
const clean = (text: string) =>
  unescapeXml(text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')).trim();

/** Reads a `<compaction_summary>` reply. No block or no summary text is garbage: never invent facts. */
export function parseCompactionReply(text: string): ParsedCompaction {
  const body = inner(text, 'compaction_summary');
  if (body === undefined)
    return {
      kind: 'garbage',
      reason: `no <compaction_summary> block: ${JSON.stringify(text.trim().slice(0, 120))}`,
    };
  const summary = clean(inner(body, 'summary') ?? '');
  if (summary === '') return { kind: 'garbage', reason: 'the <compaction_summary> has no summary' };
  const facts: Record<string, string> = {};
  for (const match of (inner(body, 'facts') ?? '').matchAll(
    /<fact\b[^>]*\bkey\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/fact\s*>/gi,
  )) {
    const key = clean(match[1]!);
    if (key !== '') facts[key] = clean(match[2]!);
  }
  const obsolete = [
    ...(inner(body, 'obsolete') ?? '').matchAll(/<key\b[^>]*>([\s\S]*?)<\/key\s*>/gi),
  ]
    .map((match) => clean(match[1]!))
    .filter((key) => key !== '');
  const title = clean(inner(body, 'title') ?? '');
  return { kind: 'summary', reply: { ...(title ? { title } : {}), summary, facts, obsolete } };
}
