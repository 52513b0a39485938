import {
  type LabelledPrompt,
  type LabelledRecord,
  type RecordRow,
  readData,
  recordOfRow,
} from '../labelled.ts';

/**
 * The paraphrase set: memory records of six made-up projects and the prompts people type
 * to a coding agent when they need one of them, written without looking at any ranker.
 * Most prompts say it in other words than the record does (see ../overlap.ts).
 *
 * Each project is a data file, `<project>.json`: what the project is (`about`), its records
 * as rows (RecordRow, one a line) and its prompts as rows (PromptRow).
 */

/** The projects, one namespace each. */
export type ParaphraseProject =
  | 'paydesk' // web backend: subscriptions, Stripe payments and webhooks (TypeScript, Postgres)
  | 'notch' // command-line tool: a Rust CLI for notes and snippets
  | 'riverbed' // data pipeline: Airflow, dbt, Spark, Snowflake (Python)
  | 'fieldkit' // mobile app: React Native / Expo field-service app
  | 'platform' // infra and CI: Terraform, Kubernetes, GitHub Actions
  | 'console'; // frontend web app: Next.js admin dashboard

/**
 * What a prompt tests (a prompt may carry several tags; the table counts it under each):
 * - `paraphrase`: says it in other words than the record;
 * - `look-alike`: several records on the same subject, only the labelled one answers;
 * - `identifier`: names a function, type, flag, table or env var the record names;
 * - `file-path`: names a file or folder the record touched;
 * - `error-text`: quotes (part of) an error message;
 * - `multi-record`: several records answer it, all labelled;
 * - `recency`: a newer record supersedes an older one on the same subject; only the newer answers.
 */
export type Tag =
  | 'paraphrase'
  | 'look-alike'
  | 'identifier'
  | 'file-path'
  | 'error-text'
  | 'multi-record'
  | 'recency';

export const TAGS: readonly Tag[] = [
  'paraphrase',
  'look-alike',
  'identifier',
  'file-path',
  'error-text',
  'multi-record',
  'recency',
];

export interface SetRecord extends LabelledRecord {
  project: ParaphraseProject;
  /** The older record this one supersedes (`recency` prompts want this one, not that). */
  supersedes?: string;
}

export interface SetPrompt extends LabelledPrompt {
  project: ParaphraseProject;
  tags: Tag[];
}

export type { RecordRow };
/** [tags, prompt, relevant keys] */
export type PromptRow = [Tag[], string, string[]];

export function records(project: ParaphraseProject, rows: RecordRow[]): SetRecord[] {
  return rows.map((row) => recordOfRow(project, row));
}

export function prompts(project: ParaphraseProject, rows: PromptRow[]): SetPrompt[] {
  return rows.map(([tags, prompt, relevant]) => ({ project, tags, prompt, relevant }));
}

/** One project's file (`<project>.json`). */
interface ProjectFile {
  about: string;
  records: RecordRow[];
  prompts: PromptRow[];
}

/** A project's records and prompts, read from its data file. */
export function loadProject(project: ParaphraseProject): {
  records: SetRecord[];
  prompts: SetPrompt[];
} {
  const file = readData<ProjectFile>(import.meta.url, project);
  return { records: records(project, file.records), prompts: prompts(project, file.prompts) };
}
