import { loadProject, type ParaphraseProject, type SetPrompt, type SetRecord } from './set.ts';

/** The projects, in the order the set lists them. */
const PROJECTS: readonly ParaphraseProject[] = [
  'paydesk',
  'notch',
  'riverbed',
  'fieldkit',
  'platform',
  'console',
];
const loaded = PROJECTS.map(loadProject);

export const PARAPHRASE_RECORDS: readonly SetRecord[] = loaded.flatMap((p) => p.records);
export const PARAPHRASE_PROMPTS: readonly SetPrompt[] = loaded.flatMap((p) => p.prompts);
