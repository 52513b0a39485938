// What every labelled eval set is made of, and how the data-file sets are read: each
// project a `<project>.json` beside its set's loader.
import { readFileSync } from 'node:fs';
import type { MemoryRecord, ObservationType } from '@kiro-learn/schema';

/** A record of a labelled set: a key the prompts point at, its project, fields and age. */
export interface LabelledRecord {
  key: string;
  project: string;
  type: MemoryRecord['observation_type'];
  title: string;
  summary: string;
  facts: string[];
  concepts: string[];
  files: string[];
  daysAgo: number;
  /** Questions the record answers (the previous turn's request of a turn record). */
  questions?: readonly string[];
  /** The older record this one supersedes (stored as the older one's `superseded_by`). */
  supersedes?: string;
}

export interface LabelledPrompt {
  project: string;
  /** What the prompt tests; the tables show a row per tag. */
  tags: readonly string[];
  prompt: string;
  /** Keys of the records that answer it. */
  relevant: readonly string[];
}

/** A record as a row: [key, type, title, summary, facts, concepts, files, daysAgo, supersedes?] */
export type RecordRow = [
  string,
  ObservationType,
  string,
  string,
  string[],
  string[],
  string[],
  number,
  string?,
];

/** A row as a labelled record of `project`. */
export function recordOfRow<P extends string>(
  project: P,
  [key, type, title, summary, facts, concepts, files, daysAgo, supersedes]: RecordRow,
): LabelledRecord & { project: P } {
  return {
    key,
    project,
    type,
    title,
    summary,
    facts,
    concepts,
    files,
    daysAgo,
    ...(supersedes === undefined ? {} : { supersedes }),
  };
}

/** A data file's parsed JSON: `<name>.json` beside `base` (a module's import.meta.url). */
export function readData<T>(base: string, name: string): T {
  return JSON.parse(readFileSync(new URL(`./${name}.json`, base), 'utf8')) as T;
}

/** Every project's records and prompts, project by project in the order given. */
export function loadProjects<P extends string, R, Q>(
  projects: readonly P[],
  load: (project: P) => { records: R[]; prompts: Q[] },
): { records: readonly R[]; prompts: readonly Q[] } {
  const loaded = projects.map(load);
  return { records: loaded.flatMap((p) => p.records), prompts: loaded.flatMap((p) => p.prompts) };
}
