import type { ColumnWeights } from '../backend.js';

/**
 * Default column weights of full-text search, for every backend: a title hit counts more
 * than a concept or file hit, which beat the facts and then the summary; a hit only in the
 * questions a record answers counts least (they are guesses at how someone might ask).
 */
export const DEFAULT_COLUMN_WEIGHTS: Readonly<ColumnWeights> = Object.freeze({
  title: 8,
  summary: 2,
  facts: 3,
  concepts: 5,
  files: 5,
  questions: 1,
});
