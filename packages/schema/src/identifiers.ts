/**
 * Characters that may not appear in namespaces and ids. Every one of them either makes two
 * different strings look alike (bidi controls reorder what a person reads; an unpaired
 * surrogate becomes U+FFFD on its way into a database, so two namespaces that differ only
 * there would merge), or breaks the places ids travel (NUL and other control characters
 * in logs, headers, file names and SQL text).
 */
const FORBIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function describe(code: number): string {
  if (code >= 0xd800 && code <= 0xdfff) return 'an unpaired surrogate';
  if (code === 0) return 'NUL';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'a control character';
  return 'a bidirectional control';
}

/**
 * Why `value` cannot be a namespace or an id, or undefined when it can: names the first
 * forbidden character, e.g. `contains a bidirectional control (U+202E) at index 4`.
 */
export function forbiddenCharacter(value: string): string | undefined {
  const match = FORBIDDEN.exec(value);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return `contains ${describe(code)} (U+${hex}) at index ${match.index}`;
}

const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'g');

/** `value` with every forbidden character replaced (actor names taken from the OS). */
export function replaceForbidden(value: string, by = '_'): string {
  return value.replace(FORBIDDEN_ALL, by);
}

/** The rule as one sentence, for error messages and docs. */
export const IDENTIFIER_RULE =
  'must not contain NUL, control characters, bidirectional controls or unpaired surrogates';
