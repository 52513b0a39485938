import { loadProject, type TurnsProject, type TurnsPrompt, type TurnsRecord } from './set.ts';

/** The projects, in the order the set lists them. */
const PROJECTS: readonly TurnsProject[] = [
  'ticker',
  'allotment',
  'pantry',
  'voyage',
  'darkroom',
  'beacon',
];
const loaded = PROJECTS.map(loadProject);

export const TURNS_RECORDS: readonly TurnsRecord[] = loaded.flatMap((p) => p.records);
export const TURNS_PROMPTS: readonly TurnsPrompt[] = loaded.flatMap((p) => p.prompts);
