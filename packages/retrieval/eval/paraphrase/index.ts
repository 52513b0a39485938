import { loadProjects } from '../labelled.ts';
import { loadProject } from './set.ts';

/** The projects, in the order the set lists them. */
export const { records: PARAPHRASE_RECORDS, prompts: PARAPHRASE_PROMPTS } = loadProjects(
  ['paydesk', 'notch', 'riverbed', 'fieldkit', 'platform', 'console'],
  loadProject,
);
