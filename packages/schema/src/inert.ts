/**
 * Memory text is data, never structure. A record's fields are written into text an agent
 * reads (the retrieval context, MCP listings): whatever a field says, it must not open a
 * heading, list item, block quote, table row, thematic break, code fence or tag there, nor
 * end a block of ours early. These helpers render a field so it cannot, the same way
 * everywhere:
 *
 * - line breaks of every kind (CR, LF, VT, FF, NEL, U+2028/9) end a line, or in a one-line
 *   field become a space; control characters, zero-width spaces and bidi overrides go;
 * - a line that would start a markdown block (a heading `#`, a quote `>`, a list item `- `,
 *   `+ `, `* `, `1. `, `1) `, a table row `|`, a fence of backticks or tildes, a thematic
 *   break or setext underline such as `---` or `===`) gets a backslash before its first
 *   marker character, the markdown escape: `\### Fake block` reads as text, not as a
 *   heading; `**bold**` and `-flag` stay as they are;
 * - a `<` that would open or close a tag (`<x`, `</x`, `<!`, `<?`) is written `&lt;`.
 *
 * Leading white space is dropped (four spaces would open an indented code block).
 */

// Control characters other than tab and the line breaks handled below, zero-width spaces
// and the bidi embedding, override and isolate controls (text that reads other than it is).
const INVISIBLE =
  /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
const TAG_OPEN = /<(?=[A-Za-z/!?])/g;
// What CommonMark would read as the start of a block, once leading spaces are gone.
const BLOCK_START =
  /^(?:[#>|]|[-+*](?=\s|$)|[-*_=](?:\s*[-*_=]){2,}\s*$|=+\s*$|`{3}|~{3}|\d{1,9}[.)](?=\s|$))/;

/** One line of a field, made inert (no line break inside). */
function inert(line: string): string {
  const text = line.replace(/^[\s\u200c\u200d]+/, '').replace(TAG_OPEN, '&lt;');
  const start = BLOCK_START.exec(text);
  if (!start) return text;
  // The backslash goes before the marker's punctuation: `\#`, `\-`, `1\.`.
  const at = /^\d/.test(start[0]) ? start[0].length - 1 : 0;
  return `${text.slice(0, at)}\\${text.slice(at)}`;
}

/**
 * A field as one inert line: every run of white space, line breaks included, becomes one
 * space. For titles, facts, author names and listing lines.
 */
export function inertLine(text: string): string {
  return inert(
    text
      .replace(INVISIBLE, '')
      .replace(/[\s\u0085]+/g, ' ')
      .trim(),
  );
}

/**
 * A field as inert lines, its line structure kept: each line made inert as by inertLine,
 * blank lines dropped (a blank line would end the block the field is placed in). For
 * summaries, whose lines say different things (`Request: …`, `Error: …`).
 */
export function inertLines(text: string): string[] {
  return text
    .replace(INVISIBLE, '')
    .split(LINE_BREAK)
    .map((line) => inertLine(line))
    .filter((line) => line.length > 0);
}
