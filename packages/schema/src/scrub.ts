import type { Event } from './event.js';
import type { MemoryRecord } from './memory.js';

/**
 * Privacy scrubbing: every write path (ingest, saved memories, extracted records) runs
 * text through a scrubber before storage, so secrets and `<private>` spans never reach
 * the database. No `node:*` imports: the viewer and the shims may load this too.
 */

/** One secret shape: matches are replaced by `[REDACTED:<kind>]`. */
export interface ScrubPattern {
  /** Short name shown in the replacement, e.g. `github_token`. */
  kind: string;
  /**
   * What to redact. With a capture group named `keep`, that part of the match stays
   * (a `password=` prefix, `Bearer `), so the text still reads naturally.
   */
  pattern: RegExp;
}

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

const NOT_REDACTED = '(?!\\[REDACTED)';

/**
 * Built-in secret shapes, most specific first (an Anthropic key also looks like an
 * OpenAI one). Context-free shapes have a distinctive prefix; shapes that are plain
 * high-entropy strings (AWS secret keys) need a keyword next to them, so a 40-hex git
 * SHA survives.
 */
export const SECRET_PATTERNS: readonly ScrubPattern[] = [
  {
    kind: 'private_key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
  },
  { kind: 'aws_access_key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    kind: 'aws_secret_key',
    pattern:
      /(?<keep>\baws_?secret(?:_?access)?_?key["']?\s*[:=]\s*["']?|\bsecret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
  },
  {
    kind: 'github_token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { kind: 'gitlab_token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'npm_token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'slack_webhook',
    pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+/g,
  },
  { kind: 'stripe_key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g },
  {
    kind: 'bearer_token',
    pattern: new RegExp(
      `(?<keep>\\bauthorization["']?\\s*[:=]\\s*["']?bearer\\s+)${NOT_REDACTED}[^\\s"',;]+`,
      'gi',
    ),
  },
  {
    // A bare "Bearer x" needs a token-like word (long, with a digit): "bearer of bad news" stays.
    kind: 'bearer_token',
    pattern: /(?<keep>\bbearer\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/gi,
  },
  {
    kind: 'url_password',
    pattern: new RegExp(
      `(?<keep>\\b[a-z][a-z0-9+.-]*://[^\\s:@/[\\]]+:)${NOT_REDACTED}[^\\s@/]+(?=@)`,
      'gi',
    ),
  },
  {
    kind: 'password',
    pattern: new RegExp(
      `(?<keep>\\b[A-Za-z0-9_.-]*(?:password|passwd|pwd)["']?[ \\t]*[:=][ \\t]*["']?)${NOT_REDACTED}[^\\s"',;&}]+`,
      'gi',
    ),
  },
  {
    kind: 'secret',
    pattern: new RegExp(
      `(?<keep>\\b[A-Za-z0-9_.-]*(?:secret|api[_-]?key|access[_-]?token|auth[_-]?token|private[_-]?token)["']?[ \\t]*[:=][ \\t]*["']?)${NOT_REDACTED}[^\\s"',;&}]+`,
      'gi',
    ),
  },
];

/** Object keys whose string value is a secret whatever it looks like (`{"password": "x"}`). */
const SECRET_KEY =
  /^(?:authorization|[A-Za-z0-9_.-]*(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|private[_-]?token))$/i;

const PRIVATE_TAG = /<(\/?)private\s*>/gi;

/** The union of the built-in patterns, case-insensitive: it can over-match, never miss. */
const MAYBE_SECRET = new RegExp(
  SECRET_PATTERNS.map((p) => `(?:${p.pattern.source.replace(/\(\?<keep>/g, '(?:')})`).join('|'),
  'i',
);

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

/**
 * Builds a scrubber from the built-in patterns plus extra ones. Throws a SyntaxError when
 * an extra pattern is not a valid regular expression (settings validation reports it
 * first, with its path).
 */
export function createScrubber(options: ScrubberOptions = {}): Scrubber {
  const extras = (options.extraPatterns ?? []).map(compileExtra);

  const text = (input: string): string => {
    let out = redactPrivate(input);
    // Most strings carry no secret: one union pass rules them out for the built-ins.
    const patterns = MAYBE_SECRET.test(out) ? [...SECRET_PATTERNS, ...extras] : extras;
    for (const { kind, pattern } of patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(out)) continue;
      pattern.lastIndex = 0;
      out = out.replace(pattern, (...args) => {
        const groups = args.at(-1) as Record<string, string | undefined> | undefined;
        const keep = typeof groups === 'object' ? (groups?.['keep'] ?? '') : '';
        return `${keep}[REDACTED:${kind}]`;
      });
    }
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
    const redactWhole = typeof item === 'string' && item !== '' && SECRET_KEY.test(key);
    out[text(key)] = redactWhole ? `[REDACTED:${secretKind(key)}]` : walk(item, text);
  }
  return out;
}

function secretKind(key: string): string {
  if (/^authorization$/i.test(key)) return 'bearer_token';
  return /pass(?:word|wd)/i.test(key) ? 'password' : 'secret';
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

/** An event with its body scrubbed (ids, namespace and source are left as sent). */
export function scrubEvent(event: Event, scrubber: Scrubber = defaultScrubber): Event {
  return { ...event, body: scrubber.value(event.body) };
}

/** A record with every human-readable field scrubbed. */
export function scrubRecord(
  record: MemoryRecord,
  scrubber: Scrubber = defaultScrubber,
): MemoryRecord {
  return {
    ...record,
    title: scrubber.text(record.title),
    summary: scrubber.text(record.summary),
    facts: record.facts.map(scrubber.text),
    concepts: record.concepts.map(scrubber.text),
    files_touched: record.files_touched.map(scrubber.text),
    ...(record.metadata ? { metadata: scrubber.value(record.metadata) } : {}),
  };
}
