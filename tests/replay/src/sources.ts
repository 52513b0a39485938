/** The public transcripts the harness knows (sources.json) and where their files are. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptSource } from './replay.ts';

export const replayRoot = new URL('..', import.meta.url).pathname;
export const FIXTURES = join(replayRoot, 'fixtures');
/** Where `node src/fetch.ts` puts the transcripts that are not committed (git-ignored). */
export const CACHE = join(replayRoot, 'cache');

export interface SourceEntry {
  name: string;
  project: string;
  repo: string;
  commit: string;
  path: string;
  license: string;
  sha256: string;
  /** Committed under fixtures/ (short transcripts). */
  fixture?: boolean;
}

export function sourceEntries(): SourceEntry[] {
  const parsed = JSON.parse(readFileSync(join(replayRoot, 'sources.json'), 'utf8')) as {
    transcripts: SourceEntry[];
  };
  return parsed.transcripts;
}

/** Where an entry's file is (fixture or cache), whether or not it exists yet. */
export function fileOf(entry: SourceEntry): string {
  return join(entry.fixture ? FIXTURES : CACHE, `${entry.name}.jsonl`);
}

/**
 * The transcripts to replay: the committed fixtures, and with `all` every fetched one too
 * (in sources.json order, so a project's sessions replay oldest listed first).
 */
export function availableSources(all: boolean): {
  sources: TranscriptSource[];
  missing: SourceEntry[];
} {
  const sources: TranscriptSource[] = [];
  const missing: SourceEntry[] = [];
  for (const entry of sourceEntries()) {
    if (!entry.fixture && !all) continue;
    const file = fileOf(entry);
    if (existsSync(file)) sources.push({ name: entry.name, project: entry.project, file });
    else missing.push(entry);
  }
  return { sources, missing };
}
