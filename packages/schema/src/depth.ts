/**
 * Whether a parsed JSON value nests arrays and objects more than `max` levels deep (the
 * value itself is level 1 when it is an array or object). Iterative, so no depth can
 * exhaust the stack: the collector refuses such documents before parsing them, and the
 * schemas refuse such values from any other caller.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
