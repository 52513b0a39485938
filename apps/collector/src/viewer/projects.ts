import type { CompactionStatus } from '@kiro-learn/buffer';
import type { ExtractionLogEntry } from '@kiro-learn/storage';
import type { ViewerDeps } from './deps.js';
import { projectName } from './summary.js';

/** One row of the projects screen. */
export interface ProjectRow {
  namespace: string;
  project: string;
  events: number;
  memories: number;
  last_event_at?: string;
  pending: { count: number; bytes: number; oldest_at?: string };
  /** Circuit-breaker state, or `unknown` when the collector has no watcher for the project. */
  breaker: string;
  last_extraction?: ExtractionLogEntry;
  /** The summary chain and its health; absent when the collector has no buffer to ask. */
  compaction?: CompactionStatus;
  /** Capture is paused for the project (`kiro-learn pause`); absent when it is not. */
  paused?: { since: string; until?: string };
}

/** Totals, pending buffer and last extraction of every project, busiest first. */
export async function listProjects(deps: ViewerDeps): Promise<ProjectRow[]> {
  const { storage } = deps;
  const [stats, pending] = await Promise.all([storage.stats(), storage.pendingSummary()]);
  const pendingBy = new Map(pending.map((p) => [p.namespace, p]));
  const namespaces = new Set([...stats.projects.map((p) => p.namespace), ...pendingBy.keys()]);
  const totals = new Map(stats.projects.map((p) => [p.namespace, p]));
  const rows = await Promise.all(
    [...namespaces].map(async (namespace): Promise<ProjectRow> => {
      const total = totals.get(namespace);
      const buffered = pendingBy.get(namespace);
      const paused = deps.paused?.(namespace);
      const [[last], compaction] = await Promise.all([
        storage.listExtractions({ namespace, limit: 1 }),
        deps.compaction?.(namespace),
      ]);
      return {
        namespace,
        project: projectName(namespace),
        events: total?.events ?? 0,
        memories: total?.memories ?? 0,
        ...(total?.lastEventAt ? { last_event_at: total.lastEventAt } : {}),
        pending: buffered
          ? { count: buffered.count, bytes: buffered.bytes, oldest_at: buffered.oldestAt }
          : { count: 0, bytes: 0 },
        breaker: deps.breakerState?.(namespace) ?? 'unknown',
        ...(last ? { last_extraction: last } : {}),
        ...(compaction ? { compaction } : {}),
        ...(paused ? { paused } : {}),
      };
    }),
  );
  return rows.sort(
    (a, b) =>
      (b.last_event_at ?? '').localeCompare(a.last_event_at ?? '') ||
      a.namespace.localeCompare(b.namespace),
  );
}
