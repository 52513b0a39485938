import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event } from '@kiro-learn/schema';

/**
 * Removes spooled events (not yet delivered to the collector) that `match`, so a forgotten
 * project's text does not come back with the next replay. Returns how many went.
 */
export function forgetSpoolLines(home: string, match: (event: Event) => boolean): number {
  return rewrite(join(home, 'spool'), /\.jsonl$/, (line) => {
    try {
      return match(JSON.parse(line) as Event);
    } catch {
      return false;
    }
  });
}

/** Removes collector log lines that mention `needle` (a namespace); all lines without one. */
export function forgetLogLines(home: string, needle?: string): number {
  return rewrite(join(home, 'logs'), /\.log(\.\d+)?$/, (line) =>
    needle === undefined ? true : line.includes(needle),
  );
}

/** Rewrites each matching file without the lines `drop` picks (atomically, by rename). */
function rewrite(dir: string, name: RegExp, drop: (line: string) => boolean): number {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => name.test(file));
  } catch {
    return 0;
  }
  let dropped = 0;
  for (const file of files) {
    const path = join(dir, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n');
    const kept = lines.filter((line) => line === '' || !drop(line));
    if (kept.length === lines.length) continue;
    dropped += lines.length - kept.length;
    writeFileSync(`${path}.forget`, kept.join('\n'), { mode: 0o600 });
    renameSync(`${path}.forget`, path);
  }
  return dropped;
}
