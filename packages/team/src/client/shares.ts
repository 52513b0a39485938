import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Event, parseNamespace } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import type { StorageBackend } from '@kiro-learn/storage';
import type { TeamLogger } from '../host.js';

/**
 * The file at a repository's root that marks it shared with the team. Committed, it makes
 * every clone share by default; `kiro-learn team unshare` opts one user out.
 */
export const SHARE_FILE = '.kiro-learn-team.json';

/** The data dir's list of projects this user opted out of sharing (`team unshare`). */
export const UNSHARED_FILE = 'team-unshared.json';

/** What the share file says (small and stable: it is committed). */
export interface ShareMarker {
  /** Always true; a file saying otherwise shares nothing. */
  share: boolean;
  /** The normalised git remote the project is known by on every machine. */
  remote?: string;
}

/** The share file of a project root, or undefined when there is none (or it is not ours). */
export function readShareMarker(root: string): ShareMarker | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(root, SHARE_FILE), 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return undefined;
    const marker = parsed as Partial<ShareMarker>;
    return marker.share === true
      ? { share: true, ...(typeof marker.remote === 'string' ? { remote: marker.remote } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the share file (pretty, with a trailing newline, as a committed file should be). */
export function writeShareMarker(root: string, remote: string): string {
  const path = join(root, SHARE_FILE);
  const marker: ShareMarker = { share: true, remote };
  writeFileSync(path, `${JSON.stringify(marker, null, 2)}\n`);
  return path;
}

/** Project ids this user opted out of sharing. */
export function readUnshared(home: string): Set<string> {
  try {
    const parsed = JSON.parse(readFileSync(join(home, UNSHARED_FILE), 'utf8')) as {
      projects?: unknown;
    };
    return new Set(
      Array.isArray(parsed.projects)
        ? parsed.projects.filter((p): p is string => typeof p === 'string')
        : [],
    );
  } catch {
    return new Set();
  }
}

/** Rewrites the opt-out list (atomically: the collector reads it while it runs). */
export function writeUnshared(home: string, projects: ReadonlySet<string>): void {
  const path = join(home, UNSHARED_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ projects: [...projects].sort() }, null, 2)}\n`, {
    mode: 0o600,
  });
  renameSync(temp, path);
}

/** How long a project root's share decision is trusted before the files are looked at again. */
const DECISION_TTL_MS = 2000;

/** Which namespaces are shared, kept in step with the share files and the opt-out list. */
export interface ShareTracker {
  /** Looks at an event's project (share file, opt-out, git remote); cheap when cached. */
  observe(event: Event): void;
  /**
   * Looks at a project's files now, whenever they were last looked at (`team share` and
   * `team unshare` ask the running collector to, so they take effect at once).
   */
  recheck(namespace: string, root: string): void;
  /** The team project id of a shared namespace, or undefined when it is not shared. */
  projectOf(namespace: string): string | undefined;
  /** Loads the namespaces storage has shared (at start-up). */
  load(): Promise<void>;
  /** Resolves when share and unshare writes started so far have finished. */
  settled(): Promise<void>;
}

/**
 * A namespace is shared when its project root holds the share file, the project has a git
 * remote (the only identity that is the same on every clone), and this user has not opted
 * out. The decision is stored (storage.sharing), so the outbox triggers queue the
 * namespace's record writes from then on, and its existing records once.
 */
export function createShareTracker(options: {
  storage: StorageBackend;
  home: string;
  logger: TeamLogger;
  now?: () => number;
}): ShareTracker {
  const { storage, home, logger } = options;
  const now = options.now ?? Date.now;
  /** Namespace → project id of the namespaces storage has as shared. */
  const shared = new Map<string, string>();
  /** Namespace → when its project root was last looked at. */
  const checked = new Map<string, number>();
  const writes = new Set<Promise<void>>();
  let unshared = { stamp: '', projects: new Set<string>() };

  const optedOut = (projectId: string): boolean => {
    const stat = statSync(join(home, UNSHARED_FILE), { throwIfNoEntry: false });
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : '';
    if (stamp !== unshared.stamp) unshared = { stamp, projects: readUnshared(home) };
    return unshared.projects.has(projectId);
  };

  const track = (work: Promise<void>) => {
    const done = work.catch((error: unknown) =>
      logger.warn('team: could not record a project as shared or not', { error }),
    );
    writes.add(done);
    void done.finally(() => writes.delete(done));
  };

  const decide = (projectId: string, root: string): boolean => {
    if (optedOut(projectId)) return false;
    if (!readShareMarker(root)) return false;
    const identity = projectIdentity(root);
    return identity.source === 'git-remote' && identity.projectId === projectId;
  };

  const consider = (namespace: string, root: string | undefined, force: boolean) => {
    const parts = parseNamespace(namespace);
    if (!root || !parts) return;
    const at = now();
    const last = checked.get(namespace);
    if (!force && last !== undefined && at - last < DECISION_TTL_MS) return;
    if (checked.size > 10_000) checked.clear();
    checked.set(namespace, at);
    const should = decide(parts.projectId, root);
    const is = shared.has(namespace);
    if (should && !is) {
      shared.set(namespace, parts.projectId);
      track(
        storage.sharing.share(namespace, parts.projectId).then(({ added, queued }) => {
          if (added) {
            logger.info('team: sharing a project', { namespace, queued_records: queued });
          }
        }),
      );
    } else if (!should && is) {
      shared.delete(namespace);
      track(
        storage.sharing.unshare(namespace).then(({ dropped }) => {
          logger.info('team: no longer sharing a project', {
            namespace,
            dropped_unsent: dropped,
          });
        }),
      );
    }
  };

  return {
    observe(event) {
      consider(event.namespace, event.source.project_path, false);
    },

    recheck(namespace, root) {
      consider(namespace, root, true);
    },

    projectOf(namespace) {
      return shared.get(namespace);
    },

    async load() {
      for (const share of await storage.sharing.listShares()) {
        shared.set(share.namespace, share.projectId);
      }
    },

    async settled() {
      while (writes.size > 0) await Promise.all(writes);
    },
  };
}
