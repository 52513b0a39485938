/**
 * Cuts `text` to at most `max` UTF-16 units (the unit the wire limits count), ending with
 * `marker` when it cut; never splits a surrogate pair.
 */
export function cut(text: string, max: number, marker = '…'): string {
  if (text.length <= max) return text;
  let keep = Math.max(0, max - marker.length);
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return text.slice(0, keep).trimEnd() + marker;
}

/** One line: white space runs (new lines included) collapsed to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
