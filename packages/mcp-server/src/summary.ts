import { LIMITS, TRUNCATION_MARKER } from '@kiro-learn/schema';
import { cut, oneLine } from './text.js';

/** What `save_session_summary` receives (validated and trimmed). */
export interface SessionSummaryInput {
  /** What the user asked for; becomes the title. */
  request: string;
  /** What was looked into. */
  investigated: string;
  /** What was learned. */
  learned: string;
  /** What got done. */
  completed: string;
  /** What remains. */
  next_steps: string;
  /** Files read during the session. */
  files_read: string[];
  /** Files changed during the session. */
  files_modified: string[];
}

/** The record fields a session summary fills. */
export interface SessionSummaryParts {
  title: string;
  summary: string;
  files_touched: string[];
}

/** Section headings, top to bottom; the bottom ones are dropped first when space runs out. */
export const SUMMARY_SECTIONS = [
  ['investigated', 'What was investigated'],
  ['learned', 'What was learned'],
  ['completed', 'What was completed'],
  ['next_steps', 'Next steps'],
] as const;

/**
 * Lays a session summary out as four markdown sections. Whole sections are dropped from the
 * bottom until the summary fits the record limit, so what remains is never cut mid-thought;
 * only a first section too long on its own is cut, with the truncation marker.
 */
export function buildSessionSummary(input: SessionSummaryInput): SessionSummaryParts {
  const sections = SUMMARY_SECTIONS.map(([key, heading]) => `## ${heading}\n\n${input[key]}`);
  while (sections.length > 1 && sections.join('\n\n').length > LIMITS.summaryLength) {
    sections.pop();
  }
  return {
    title: cut(oneLine(input.request), LIMITS.titleLength),
    summary: cut(sections.join('\n\n'), LIMITS.summaryLength, TRUNCATION_MARKER),
    files_touched: [...new Set([...input.files_read, ...input.files_modified])],
  };
}
