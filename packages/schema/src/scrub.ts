import type { Event } from './event.js';
import { LIMITS, TRUNCATION_MARKER } from './limits.js';
import type { MemoryRecord, MemoryRecordPatch } from './memory.js';
import { isSecretValue, type ScrubPattern, SECRET_PATTERNS, secretName } from './secrets.js';
import { utf8Length } from './utf8.js';

export { type ScrubPattern, SECRET_PATTERNS } from './secrets.js';

/**
 * Privacy scrubbing: every write path (ingest, saved memories, extracted records) runs
 * text through a scrubber before storage, so secrets and `<private>` spans never reach
 * the database. No `node:*` imports: the viewer and the shims may load this too.
 */

/** A user-supplied extra pattern: a regular expression source, or one with its kind. */
export type ExtraPattern = string | { pattern: string; kind?: string; flags?: string };

export interface ScrubberOptions {
  /** Patterns added to the built-in ones (settings `privacy.extraPatterns`). */
  extraPatterns?: readonly ExtraPattern[];
}

export interface Scrubber {
  /** Redacts `<private>` spans and secrets in one string. */
  text(input: string): string;
  /** Deep copy with every string scrubbed, object keys included. */
  value<T>(input: T): T;
}

export const PRIVATE_REDACTION = '[REDACTED]';

/**
 * `<private>`, `<private reason="…">`, `</private>`: attribute values may hold `>`; an
 * opening tag left unterminated runs to the end of the text (it is redacted with it).
 */
const PRIVATE_TAG =
  /<(\/?)private(?:(?=[\s>])(?:\s(?:[^>"']|"[^"]*(?:"|$)|'[^']*(?:'|$))*)?(?:>|$)|\s*>)/gi;

/** Named groups become plain ones, so the patterns can share one union. */
const hintOf = (p: ScrubPattern) =>
  p.hint ?? p.pattern.source.replace(/\(\?<[A-Za-z_]\w*>/g, '(?:');

/** The union of the built-in patterns, case-insensitive: it can over-match, never miss. */
const MAYBE_SECRET = new RegExp(SECRET_PATTERNS.map((p) => `(?:${hintOf(p)})`).join('|'), 'i');

/**
 * Replaces each outermost `<private>…</private>` span with `[REDACTED]`. Tags are matched
 * case-insensitively and nest; an unclosed span runs to the end of the string; a stray
 * closing tag is left alone.
 */
export function redactPrivate(input: string): string {
  if (!/<private/i.test(input)) return input;
  let out = '';
  let depth = 0;
  let copiedTo = 0;
  let spanStart = 0;
  PRIVATE_TAG.lastIndex = 0;
  for (let match = PRIVATE_TAG.exec(input); match; match = PRIVATE_TAG.exec(input)) {
    if (match[1] === '') {
      if (depth === 0) spanStart = match.index;
      depth++;
    } else if (depth > 0) {
      depth--;
      if (depth === 0) {
        out += input.slice(copiedTo, spanStart) + PRIVATE_REDACTION;
        copiedTo = match.index + match[0].length;
      }
    }
  }
  if (depth > 0) return out + input.slice(copiedTo, spanStart) + PRIVATE_REDACTION;
  return out + input.slice(copiedTo);
}

function compileExtra(extra: ExtraPattern): ScrubPattern {
  const spec = typeof extra === 'string' ? { pattern: extra } : extra;
  const flags = new Set([...(spec.flags ?? ''), 'g']);
  return { kind: spec.kind ?? 'custom', pattern: new RegExp(spec.pattern, [...flags].join('')) };
}

function redactMatches(input: string, { kind, pattern, accept }: ScrubPattern): string {
  pattern.lastIndex = 0;
  if (!pattern.test(input)) return input;
  pattern.lastIndex = 0;
  return input.replace(pattern, (...args) => {
    const last = args.at(-1);
    const groups = (typeof last === 'object' && last ? last : {}) as Record<
      string,
      string | undefined
    >;
    if (accept && !accept(groups)) return args[0] as string;
    return `${groups['keep'] ?? ''}${groups['open'] ?? ''}[REDACTED:${kind}]${groups['after'] ?? ''}`;
  });
}

/**
 * Builds a scrubber from the built-in patterns plus extra ones (settings
 * `privacy.extraPatterns`): the collector and the hooks' spool both build theirs here, so
 * what is redacted is the same wherever text is written. Throws a SyntaxError when an
 * extra pattern is not a valid regular expression (settings validation reports it first,
 * with its path).
 */
export function createScrubber(options: ScrubberOptions = {}): Scrubber {
  const extras = (options.extraPatterns ?? []).map(compileExtra);
  const all = [...SECRET_PATTERNS, ...extras];

  const text = (input: string): string => {
    let out = redactPrivate(input);
    // Most strings carry no secret: one union pass rules them out for the built-ins.
    for (const pattern of MAYBE_SECRET.test(out) ? all : extras) out = redactMatches(out, pattern);
    return out;
  };

  const value = <T>(input: T): T => walk(input, text) as T;
  return { text, value };
}

function walk(input: unknown, text: (s: string) => string): unknown {
  if (typeof input === 'string') return text(input);
  if (Array.isArray(input)) return input.map((item) => walk(item, text));
  if (input === null || typeof input !== 'object') return input;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(input)) {
    const kind = typeof item === 'string' ? secretKeyKind(key, item) : undefined;
    out[text(key)] = kind ? `[REDACTED:${kind}]` : walk(item, text);
  }
  return out;
}

/** The kind of secret a string under this object key is, when the key names one. */
function secretKeyKind(key: string, value: string): string | undefined {
  if (/^(?:proxy-)?authorization$/i.test(key)) {
    if (value === '' || value.includes('[REDACTED')) return undefined;
    return /^basic\s/i.test(value) ? 'basic_auth' : 'bearer_token';
  }
  if (!isSecretValue(secretName(key), value, true)) return undefined;
  return /passw|passphrase|pwd/i.test(key) ? 'password' : 'secret';
}

/** Cuts a scrubbed string to `max` UTF-16 units without splitting a surrogate pair. */
function fit(text: string, max: number, marker = ''): string {
  if (text.length <= max) return text;
  let end = max - marker.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + marker;
}

const defaultScrubber = createScrubber();

/** Scrubs one string with the built-in patterns. */
export function scrubText(input: string): string {
  return defaultScrubber.text(input);
}

/** Scrubs every string (and key) of a JSON-like value with the built-in patterns. */
export function scrubValue<T>(input: T): T {
  return defaultScrubber.value(input);
}

/**
 * An event with every free-text string scrubbed: the body, `session_id`, `actor_id` and
 * every `source` field. Ids, kinds, times and the namespace are left as sent (a
 * namespace is an identity: the collector refuses one a scrubber would change, rather
 * than merge projects). A field that scrubbing lengthened past its limit is cut to it, and
 * a body past LIMITS.bodyBytes is cut back under it (its longest strings end early).
 */
export function scrubEvent(event: Event, scrubber: Scrubber = defaultScrubber): Event {
  const text = scrubber.text;
  const { source } = event;
  return {
    ...event,
    session_id: fit(text(event.session_id), LIMITS.idLength),
    actor_id: fit(text(event.actor_id), LIMITS.idLength),
    body: fitBody(scrubBody(event.body, scrubber)),
    source: {
      ...source,
      version: fit(text(source.version), LIMITS.versionLength),
      client_id: fit(text(source.client_id), LIMITS.idLength),
      ...(source.project_path !== undefined
        ? { project_path: fit(text(source.project_path), LIMITS.pathLength) }
        : {}),
    },
  };
}

/** A body's size as EventSchema counts it: UTF-8 bytes of its JSON. */
const bodySize = (body: Event['body']): number => utf8Length(JSON.stringify(body) ?? '');

type Slot = { holder: Record<string, unknown> | unknown[]; key: string | number; value: string };

/** The longest string value in a body (never its `type`), and where it sits. */
function longestString(body: Event['body']): Slot | undefined {
  let best: Slot | undefined;
  const visit = (holder: Slot['holder'], key: string | number, value: unknown): void => {
    if (typeof value === 'string') {
      if (!best || value.length > best.value.length) best = { holder, key, value };
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(value, i, item);
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const k of Object.keys(record)) visit(record, k, record[k]);
    }
  };
  const top = body as unknown as Record<string, unknown>;
  for (const key of Object.keys(top)) if (key !== 'type') visit(top, key, top[key]);
  return best;
}

/**
 * A body that scrubbing lengthened past LIMITS.bodyBytes (a redaction is longer than a
 * short secret) is cut back under it, so a valid event stays valid and is stored: its
 * longest strings lose their ends (marked as truncated). Cutting n UTF-16 units removes at
 * least n bytes of JSON, so one cut of the longest string usually suffices. The body is
 * the scrubber's fresh copy: cutting it in place touches nothing of the caller's.
 */
function fitBody(body: Event['body']): Event['body'] {
  let size = bodySize(body);
  while (size > LIMITS.bodyBytes) {
    const slot = longestString(body);
    if (!slot || slot.value.length === 0) break;
    const max = Math.max(0, slot.value.length - (size - LIMITS.bodyBytes));
    const cut =
      max > TRUNCATION_MARKER.length
        ? fit(slot.value, max, TRUNCATION_MARKER)
        : fit(slot.value, max);
    (slot.holder as Record<string | number, unknown>)[slot.key] = cut;
    size = bodySize(body);
  }
  return body;
}

function scrubBody(body: Event['body'], scrubber: Scrubber): Event['body'] {
  if (body.type !== 'message') return scrubber.value(body);
  return {
    ...body,
    turns: body.turns.map((turn) => ({
      ...turn,
      role: fit(scrubber.text(turn.role), LIMITS.roleLength),
      content: scrubber.text(turn.content),
    })),
  };
}

/** A text field scrubbed, then cut to `max` if scrubbing lengthened it (ending with the marker). */
const scrubbedText = (scrubber: Scrubber, value: string, max: number) =>
  fit(scrubber.text(value), max, TRUNCATION_MARKER);

/** A list field with each item scrubbed and cut to `max`. */
const scrubbedList = (scrubber: Scrubber, items: readonly string[], max: number) =>
  items.map((item) => scrubbedText(scrubber, item, max));

/**
 * A record with every string scrubbed (`strategy`, text, lists, metadata); the id, the
 * namespace, the event ids and the times are left as sent. A field that scrubbing
 * lengthened past its limit is cut to it (text fields end with the truncation marker),
 * so a record that was valid stays valid.
 */
export function scrubRecord(
  record: MemoryRecord,
  scrubber: Scrubber = defaultScrubber,
): MemoryRecord {
  return {
    ...record,
    strategy: fit(scrubber.text(record.strategy), LIMITS.strategyLength),
    title: scrubbedText(scrubber, record.title, LIMITS.titleLength),
    summary: scrubbedText(scrubber, record.summary, LIMITS.summaryLength),
    facts: scrubbedList(scrubber, record.facts, LIMITS.factLength),
    concepts: scrubbedList(scrubber, record.concepts, LIMITS.conceptLength),
    files_touched: scrubbedList(scrubber, record.files_touched, LIMITS.fileLength),
    ...(record.questions
      ? { questions: scrubbedList(scrubber, record.questions, LIMITS.questionLength) }
      : {}),
    ...(record.superseded_reason !== undefined
      ? {
          superseded_reason: scrubbedText(
            scrubber,
            record.superseded_reason,
            LIMITS.supersededReasonLength,
          ),
        }
      : {}),
    ...(record.metadata ? { metadata: scrubber.value(record.metadata) } : {}),
  };
}

/** A record edit with each given field scrubbed and cut to its limit, like scrubRecord. */
export function scrubRecordPatch(
  patch: MemoryRecordPatch,
  scrubber: Scrubber = defaultScrubber,
): MemoryRecordPatch {
  const list = (items: readonly string[], max: number) => scrubbedList(scrubber, items, max);
  return {
    ...patch,
    ...(patch.title !== undefined
      ? { title: scrubbedText(scrubber, patch.title, LIMITS.titleLength) }
      : {}),
    ...(patch.summary !== undefined
      ? { summary: scrubbedText(scrubber, patch.summary, LIMITS.summaryLength) }
      : {}),
    ...(patch.facts ? { facts: list(patch.facts, LIMITS.factLength) } : {}),
    ...(patch.concepts ? { concepts: list(patch.concepts, LIMITS.conceptLength) } : {}),
    ...(patch.files_touched ? { files_touched: list(patch.files_touched, LIMITS.fileLength) } : {}),
    ...(patch.questions ? { questions: list(patch.questions, LIMITS.questionLength) } : {}),
  };
}
