/**
 * One table of a TOML file (`[mcp_servers.kiro-learn]`), set or removed as text: the
 * rest of the file, comments and layout included, stays byte for byte. Enough for the one
 * table kiro-learn owns; never a general TOML editor.
 */

const HEADER = /^\s*\[/;

/** The text with the table `header` (e.g. `[mcp_servers.kiro-learn]`) set to `body` lines. */
export function withTomlTable(
  text: string | null,
  header: string,
  body: readonly string[],
): string {
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  const block = [header, ...body].join(eol) + eol;
  const without = withoutTomlTable(text ?? '', header);
  if (without === '') return block;
  return `${without.replace(/(\r?\n)*$/, '')}${eol}${eol}${block}`;
}

/** The text without the table `header` and its lines (up to the next table). */
export function withoutTomlTable(text: string, header: string): string {
  const lines = text.split(/(?<=\n)/);
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (HEADER.test(line)) inside = line.trim() === header;
    if (!inside) out.push(line);
  }
  const joined = out.join('');
  // The blank line set before the table goes with it.
  return joined.trim() === ''
    ? ''
    : joined.replace(/(\r?\n)+$/, text.includes('\r\n') ? '\r\n' : '\n');
}

/** A TOML basic string. */
export function tomlString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
