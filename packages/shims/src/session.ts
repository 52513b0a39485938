import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookUlid } from './ulid.js';

/** A file-based session ends after this long without a hook. */
export const SESSION_IDLE_MS = 4 * 60 * 60 * 1000;

/**
 * The session id for agents whose payloads carry none (Kiro CLI agent hooks, legacy Kiro
 * IDE): one file per surface and project in the data dir, renewed at session start or after
 * a long idle, so every hook of one session shares an id.
 */
export function fileSession(
  home: string,
  surface: string,
  projectId: string,
  fresh: boolean,
  now: number = Date.now(),
): string {
  const dir = join(home, 'sessions');
  const file = join(dir, `${surface}--${projectId}`);
  if (!fresh) {
    try {
      if (now - statSync(file).mtimeMs < SESSION_IDLE_MS) {
        const id = readFileSync(file, 'utf8').trim();
        if (id) {
          const seconds = now / 1000;
          utimesSync(file, seconds, seconds);
          return id;
        }
      }
    } catch {
      // no session yet
    }
  }
  const id = hookUlid(now);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, id);
  } catch {
    // an unwritable data dir costs session continuity, never the event
  }
  return id;
}
