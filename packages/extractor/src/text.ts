/** Cuts text to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: a lone half is invalid UTF-16 and breaks JSON consumers.
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Keeps the head and the tail of long text (errors and test totals sit at the end of output). */
export function headTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `\n… [${text.length - max} characters left out] …\n`;
  const half = Math.max(0, Math.floor((max - marker.length) / 2));
  return `${text.slice(0, half)}${marker}${text.slice(text.length - half)}`;
}

/** Collapses white space runs to one space and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
