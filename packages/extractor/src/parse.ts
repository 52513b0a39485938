import { OBSERVATION_TYPES } from '@kiro-learn/schema';
import type { RecordDraft } from './records.js';
import { unescapeXml } from './xml.js';

/** What a compressor reply meant. */
export type ParsedReply =
  /** At least one usable block; `dropped` counts blocks with a bad type or no title/summary. */
  | { kind: 'records'; drafts: RecordDraft[]; dropped: number }
  /** `<skip/>` or an empty reply: nothing worth remembering. */
  | { kind: 'skip' }
  /** Neither: conversational text, a refusal, broken XML. */
  | { kind: 'garbage'; reason: string };

const BLOCK = /<memory_record\b([^>]*)>([\s\S]*?)<\/memory_record\s*>/gi;

function text(body: string, tag: string): string {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(body);
  return match ? unescapeXml(stripCdata(match[1]!)).trim() : '';
}

function stripCdata(value: string): string {
  return value.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1');
}

/** Items of `<facts><fact>…</fact></facts>`; a list written as lines is accepted too. */
function list(body: string, outer: string, inner: string): string[] {
  const container = new RegExp(`<${outer}\\b[^>]*>([\\s\\S]*?)</${outer}\\s*>`, 'i').exec(
    body,
  )?.[1];
  const scope = container ?? body;
  const items = [
    ...scope.matchAll(new RegExp(`<${inner}\\b[^>]*>([\\s\\S]*?)</${inner}\\s*>`, 'gi')),
  ].map((match) => match[1]!);
  const raw =
    items.length > 0 || container === undefined
      ? items
      : container.split('\n').map((line) => line.replace(/^\s*[-*•]\s*/, ''));
  return raw.map((item) => unescapeXml(stripCdata(item)).trim()).filter((item) => item !== '');
}

function sources(body: string, attrs: string): string[] {
  const ids = list(body, 'sources', 'event_id');
  const attr = /\bsources?\s*=\s*"([^"]*)"/i.exec(attrs)?.[1];
  if (attr) ids.push(...attr.split(/[\s,]+/));
  return ids.flatMap((id) => id.split(/[\s,]+/)).filter((id) => id !== '');
}

/**
 * Reads a compressor reply. Blocks with an unknown type or no title or summary are dropped; a reply
 * whose every block was dropped is garbage, so it is retried rather than silently lost.
 */
export function parseReply(reply: string): ParsedReply {
  const drafts: RecordDraft[] = [];
  let blocks = 0;
  for (const match of reply.matchAll(BLOCK)) {
    blocks++;
    const attrs = match[1]!;
    const body = match[2]!;
    const draft: RecordDraft = {
      type: unescapeXml(/\btype\s*=\s*["']([^"']*)["']/i.exec(attrs)?.[1] ?? ''),
      title: text(body, 'title'),
      summary: text(body, 'summary'),
      facts: list(body, 'facts', 'fact'),
      concepts: list(body, 'concepts', 'concept'),
      files: list(body, 'files', 'file'),
      sources: sources(body, attrs),
    };
    const questions = list(body, 'questions', 'question');
    if (questions.length) draft.questions = questions;
    const supersedes = list(body, 'supersedes', 'record_id').flatMap((id) => id.split(/[\s,]+/));
    if (supersedes.length) draft.supersedes = supersedes;
    const typed = (OBSERVATION_TYPES as readonly string[]).includes(draft.type);
    if (typed && draft.title !== '' && draft.summary !== '') drafts.push(draft);
  }
  if (drafts.length > 0) return { kind: 'records', drafts, dropped: blocks - drafts.length };
  if (blocks > 0)
    return {
      kind: 'garbage',
      reason: `${blocks} memory_record block(s), none with a known type, a title and a summary`,
    };
  const trimmed = reply.replace(/```(?:xml)?/g, '').trim();
  if (trimmed === '' || /^<skip\s*\/?>(\s*<\/skip>)?$/i.test(trimmed)) return { kind: 'skip' };
  return {
    kind: 'garbage',
    reason: `reply is neither memory records nor <skip/>: ${JSON.stringify(trimmed.slice(0, 120))}`,
  };
}
