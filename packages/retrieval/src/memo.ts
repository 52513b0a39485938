/**
 * Bounded memory for the string functions retrieval calls over and over: every prompt
 * stems, splits and pairs the words of its 40 candidates several times (ranking, the echo
 * checks, the repeat rule), mostly the same few hundred words of a project's records.
 */

/**
 * `compute`, remembered for up to `size` distinct inputs of at most `maxLength` characters.
 * When full, everything is forgotten at once: bounded (a pasted blob or a long-lived
 * collector brings new words), with no bookkeeping per hit.
 */
export function memoised<T>(
  compute: (text: string) => T,
  size: number,
  maxLength: number,
): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    if (text.length > maxLength) return compute(text);
    let out = seen.get(text);
    if (out === undefined) {
      out = compute(text);
      if (seen.size >= size) seen.clear();
      seen.set(text, out);
    }
    return out;
  };
}
