import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { projectIdentity } from '@kiro-learn/schema/node';
import type { ForgetCounts, StorageBackend } from '@kiro-learn/storage';
import type { CollectorSettings } from '../config/settings.js';

/** What retention dropped (or would drop) in one scope. */
export interface RetentionStep {
  /** `all` for the database-wide size cap, else a namespace. */
  scope: string;
  /** The rule: `maxAgeDays=30`, `maxDatabaseMB=500`. */
  rule: string;
  counts: ForgetCounts;
}

const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

/** A `retention.projects` key: a namespace as it is, a directory (`~/` allowed) by its identity. */
export function retentionNamespace(key: string, env: NodeJS.ProcessEnv = process.env): string {
  if (key.startsWith('/actor/')) return key;
  const dir = key === '~' || key.startsWith('~/') ? homedir() + key.slice(1) : key;
  return projectIdentity(resolve(dir), { env }).namespace;
}

/**
 * Applies the retention settings (or, with `dryRun`, counts what they would drop): each
 * project's age limit (its own, else the global one), each project's own size cap, then
 * the database-wide size cap. Events only: memory records are kept.
 */
export async function applyRetention(
  storage: StorageBackend,
  settings: CollectorSettings,
  options: { now: number; dryRun?: boolean; env?: NodeJS.ProcessEnv },
): Promise<RetentionStep[]> {
  const { retention } = settings;
  const dryRun = options.dryRun ?? false;
  const overrides = new Map(
    Object.entries(retention.projects).map(([key, limits]) => [
      retentionNamespace(key, options.env),
      limits,
    ]),
  );
  const namespaces = new Set([
    ...(await storage.stats()).projects.map((p) => p.namespace),
    ...overrides.keys(),
  ]);
  const steps: RetentionStep[] = [];
  const step = async (scope: string, rule: string, run: Promise<ForgetCounts>) => {
    const counts = await run;
    if (counts.events + counts.pending + counts.logs > 0) steps.push({ scope, rule, counts });
  };
  for (const namespace of [...namespaces].sort()) {
    const own = overrides.get(namespace);
    const days = own?.events?.maxAgeDays ?? retention.events.maxAgeDays;
    if (days > 0) {
      const olderThan = new Date(options.now - days * DAY_MS).toISOString();
      await step(
        namespace,
        `maxAgeDays=${days}`,
        storage.pruneEvents({ namespace, olderThan, dryRun }),
      );
    }
    if (own?.maxDatabaseMB) {
      await step(
        namespace,
        `maxDatabaseMB=${own.maxDatabaseMB}`,
        storage.pruneEvents({ namespace, maxBytes: own.maxDatabaseMB * MB, dryRun }),
      );
    }
  }
  if (retention.maxDatabaseMB > 0) {
    await step(
      'all',
      `maxDatabaseMB=${retention.maxDatabaseMB}`,
      storage.pruneEvents({ maxBytes: retention.maxDatabaseMB * MB, dryRun }),
    );
  }
  return steps;
}
