import { createHash } from 'node:crypto';
import type { Event } from '@kiro-learn/schema';

/** Characters of a digested field kept as its head. */
const HEAD_CHARS = 160;

function head(text: string): string {
  let end = Math.min(HEAD_CHARS, text.length);
  // A lone surrogate half would make invalid UTF-8 downstream.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** A huge string as one line: its length, a short hash, its head and where to find the whole. */
export function digestString(text: string, eventId: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return `[kiro-learn digest: ${text.length} chars, sha256:${hash}, whole text in event ${eventId} (get_event); head: ${JSON.stringify(head(text))}]`;
}

function digestValue(value: unknown, eventId: string, maxChars: number): unknown {
  if (typeof value === 'string') return digestString(value, eventId, maxChars);
  if (Array.isArray(value)) return value.map((item) => digestValue(item, eventId, maxChars));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, digestValue(item, eventId, maxChars)]),
    );
  return value;
}

/**
 * A copy of the event whose string fields longer than `maxChars` (file bodies, diffs, long
 * output) are digests. Short fields stay verbatim and a JSON body stays the same shape.
 * The stored event is never touched.
 */
export function digestEvent(event: Event, maxChars: number): Event {
  const id = event.event_id;
  const body = event.body;
  switch (body.type) {
    case 'text':
      return body.content.length <= maxChars
        ? event
        : { ...event, body: { type: 'text', content: digestString(body.content, id, maxChars) } };
    case 'message':
      return {
        ...event,
        body: {
          type: 'message',
          turns: body.turns.map((turn) => ({
            ...turn,
            content: digestString(turn.content, id, maxChars),
          })),
        },
      };
    case 'json':
      return { ...event, body: { type: 'json', data: digestValue(body.data, id, maxChars) } };
  }
}
