/**
 * The `gc` pass for stores written by earlier versions: turn summaries of the built-in
 * extractor that only repeat the user's request (a turn with no tool use and no answer:
 * `Request: … No tools were used.`, or a turn cut before it ended). Extraction no longer
 * writes them; this removes those already stored. Reversible: the removed records are
 * written first to an export file in the data dir (`kiro-learn import FILE` brings them
 * back), and their events stay, so they can be extracted again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from './export.js';

/** Lines an old built-in turn summary wrote when the turn learned nothing. */
const NOTHING_LEARNED =
  /^(?:No tools were used\.|\(The turn had not ended when this was written\.\))$/;

/**
 * A turn summary that says no more than the request: the built-in extractor's, no fact, no
 * file, and besides its `Request:` line only a "nothing happened" line (no outcome, no error).
 */
export function isQuestionOnlyRecord(record: MemoryRecord): boolean {
  if (record.strategy !== 'builtin' || record.observation_type !== 'session_summary') return false;
  if (record.facts.length > 0 || record.files_touched.length > 0) return false;
  const lines = record.summary.split('\n').filter((line) => line.trim() !== '');
  return (
    lines.length > 0 &&
    lines[0]!.startsWith('Request: ') &&
    lines.slice(1).every((line) => NOTHING_LEARNED.test(line.trim()))
  );
}

export interface QuestionOnlyStep {
  /** Records found (and, unless a dry run, removed). */
  records: number;
  /** Per project. */
  projects: Array<{ namespace: string; records: number }>;
  /** The export file holding the removed records (absent on a dry run or when none). */
  file?: string;
}

/** Finds (and unless `dryRun` removes, after saving them) question-only records. */
export async function removeQuestionOnly(
  storage: Pick<StorageBackend, 'scanRecords' | 'deleteRecord'>,
  options: { home: string; now: number; dryRun: boolean; toolVersion: string },
): Promise<QuestionOnlyStep> {
  const found: MemoryRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await storage.scanRecords({ limit: 1000, ...(cursor ? { cursor } : {}) });
    found.push(...page.items.filter(isQuestionOnlyRecord));
    cursor = page.nextCursor;
  } while (cursor);
  const perProject = new Map<string, number>();
  for (const record of found)
    perProject.set(record.namespace, (perProject.get(record.namespace) ?? 0) + 1);
  const step: QuestionOnlyStep = {
    records: found.length,
    projects: [...perProject]
      .map(([namespace, records]) => ({ namespace, records }))
      .sort((a, b) => a.namespace.localeCompare(b.namespace)),
  };
  if (options.dryRun || found.length === 0) return step;
  const dir = join(options.home, 'gc');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date(options.now).toISOString().replace(/[:.]/g, '-');
  const file = join(dir, `${stamp}-question-only-records.jsonl`);
  const header: ExportHeader = {
    type: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    tool_version: options.toolVersion,
    exported_at: new Date(options.now).toISOString(),
    counts: { events: 0, records: found.length },
  };
  writeFileSync(
    file,
    [
      JSON.stringify(header),
      ...found.map((record) => JSON.stringify({ type: 'record', record })),
      JSON.stringify({ type: 'end', events: 0, records: found.length }),
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
  for (const record of found) await storage.deleteRecord(record.record_id);
  return { ...step, file };
}
