import type { EventBody } from '@kiro-learn/schema';
import { LIMITS, TRUNCATION_MARKER } from '@kiro-learn/schema';

// Buffer.byteLength, not the schema's utf8Length: a JavaScript loop over a cold hook's first
// kilobytes runs in the interpreter (and triggers an on-stack compile), costing
// milliseconds where the native count costs microseconds.
const MARKER_BYTES = Buffer.byteLength(TRUNCATION_MARKER);

/**
 * Caps a body's serialized size, cutting where it hurts least: text keeps its start, json
 * cuts `tool_response` first, then `tool_input`, then the whole value; message cuts its
 * last turns first. Cut strings end with the truncation marker.
 */
export function capBody(
  body: EventBody,
  maxBytes: number = LIMITS.shimBodyBytes,
): { body: EventBody; truncated: boolean } {
  const size = (value: EventBody) => Buffer.byteLength(JSON.stringify(value));
  if (size(body) <= maxBytes) return { body, truncated: false };
  switch (body.type) {
    case 'text':
      return {
        body: {
          type: 'text',
          content: shrink(body.content, (content) => size({ type: 'text', content }), maxBytes),
        },
        truncated: true,
      };
    case 'message': {
      const turns = body.turns.map((turn) => ({ ...turn }));
      const measure = (i: number, content: string) =>
        size({ type: 'message', turns: turns.map((t, j) => (j === i ? { ...t, content } : t)) });
      for (let i = turns.length - 1; i >= 0 && measure(-1, '') > maxBytes; i--) {
        const turn = turns[i]!;
        turn.content = shrink(turn.content, (content) => measure(i, content), maxBytes);
        // A turn that cannot fit even as the bare marker goes, as long as one turn is left.
        if (i > 0 && measure(-1, '') > maxBytes) turns.splice(i, 1);
      }
      return { body: { type: 'message', turns }, truncated: true };
    }
    case 'json': {
      let data = body.data;
      if (data && typeof data === 'object' && !Array.isArray(data)) {
        const object = { ...(data as Record<string, unknown>) };
        for (const field of ['tool_response', 'tool_input']) {
          if (!(field in object) || size({ type: 'json', data: object }) <= maxBytes) continue;
          const raw = object[field];
          const text = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '');
          object[field] = shrink(
            text,
            (value) => size({ type: 'json', data: { ...object, [field]: value } }),
            maxBytes,
          );
        }
        data = object;
      }
      if (size({ type: 'json', data }) > maxBytes) {
        const text = typeof data === 'string' ? data : (JSON.stringify(data) ?? '');
        data = shrink(text, (value) => size({ type: 'json', data: value }), maxBytes);
      }
      return { body: { type: 'json', data }, truncated: true };
    }
  }
}

/**
 * Cuts `text` from the end (plus the marker) until `measure` fits `maxBytes`. Every
 * character serializes to at least its UTF-8 bytes, so each cut of the overshoot makes
 * progress; a handful of rounds always fits.
 */
function shrink(text: string, measure: (candidate: string) => number, maxBytes: number): string {
  let keep = Buffer.byteLength(text);
  let candidate = text;
  for (let attempt = 0; attempt < 8; attempt++) {
    const over = measure(candidate) - maxBytes;
    if (over <= 0) return candidate;
    // Escapes can make the serialized form far larger than the raw text: scale first,
    // then cut the remaining overshoot.
    const scaled = attempt === 0 ? Math.floor((keep * maxBytes) / (maxBytes + over)) : keep - over;
    keep = Math.max(0, scaled - MARKER_BYTES);
    candidate = `${prefixBytes(text, keep)}${TRUNCATION_MARKER}`;
  }
  return TRUNCATION_MARKER.trim();
}

/** The longest prefix of `text` whose UTF-8 encoding fits `maxBytes`, never splitting a character. */
export function prefixBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + width > maxBytes) return text.slice(0, i);
    bytes += width;
    if (pair) i++;
  }
  return text;
}
