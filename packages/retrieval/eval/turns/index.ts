import { loadProjects } from '../labelled.ts';
import { loadProject } from './set.ts';

/** The projects, in the order the set lists them. */
export const { records: TURNS_RECORDS, prompts: TURNS_PROMPTS } = loadProjects(
  ['ticker', 'allotment', 'pantry', 'voyage', 'darkroom', 'beacon'],
  loadProject,
);
