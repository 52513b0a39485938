/**
 * What `new Date(ms).toISOString()` returns, without its cost: its first call in a process
 * loads the local time zone (a file read and ICU set-up, about 0.2 ms of a hook's
 * start-up), which the UTC getters never need.
 */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  return `${day}T${time}.${String(date.getUTCMilliseconds()).padStart(3, '0')}Z`;
}
