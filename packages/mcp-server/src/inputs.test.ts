import { describe, expect, it } from 'vitest';
import { MINIMAL_SUMMARY } from '../test/helpers.ts';
import { TOOL_INPUTS, type ToolName } from './inputs.js';

function errors(tool: ToolName, args: unknown): string[] {
  const result = TOOL_INPUTS[tool].safeParse(args);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

const summary = MINIMAL_SUMMARY;

describe('tool inputs', () => {
  it('accept a minimal valid call and fill in defaults', () => {
    expect(TOOL_INPUTS.search_memory.parse({ query: ' cache ' })).toEqual({
      query: 'cache',
      limit: 10,
    });
    expect(
      TOOL_INPUTS.save_observation.parse({
        title: 't',
        summary: 's',
        observation_type: 'decision',
      }),
    ).toEqual({
      title: 't',
      summary: 's',
      observation_type: 'decision',
      facts: [],
      concepts: [],
      files: [],
      supersedes: [],
    });
  });

  it('name the missing field', () => {
    expect(errors('search_memory', {})).toEqual(['query must be a string']);
    const { learned: _, ...withoutLearned } = summary;
    expect(errors('save_session_summary', withoutLearned)).toEqual(['learned must be a string']);
  });

  it('reject blank strings, including inside lists', () => {
    expect(errors('search_memory', { query: '  \n ' })).toEqual(['query must not be blank']);
    expect(errors('save_session_summary', { ...summary, files_read: ['a.ts', ' '] })).toEqual([
      'each files_read entry must not be blank',
    ]);
  });

  it('reject oversize values with the limit in the message', () => {
    expect(errors('search_memory', { query: 'q', limit: 101 })).toEqual([
      'limit must be at most 100',
    ]);
    expect(
      errors('save_observation', {
        title: 't'.repeat(201),
        summary: 's',
        observation_type: 'error',
      }),
    ).toEqual(['title must be at most 200 characters']);
    expect(
      errors('save_session_summary', { ...summary, files_modified: Array(101).fill('f') }),
    ).toEqual(['files_modified may hold at most 100 entries']);
    expect(errors('get_memories', { ids: [] })).toEqual(['ids must name at least one record id']);
  });

  it('reject wrong types and malformed ids', () => {
    expect(errors('search_memory', { query: 'q', limit: '5' })).toEqual(['limit must be a number']);
    expect(errors('search_memory', { query: 'q', limit: 2.5 })).toEqual([
      'limit must be a whole number',
    ]);
    expect(
      errors('save_observation', { title: 't', summary: 's', observation_type: 'idea' }),
    ).toEqual(['must be one of tool_use, decision, error, discovery, pattern, session_summary']);
    expect(errors('get_event', { event_id: 'not-a-ulid' })).toEqual([
      'must be a ULID (26 Crockford base-32 characters)',
    ]);
    expect(errors('timeline', { around: 'yesterday' })).toEqual([
      'around must be a record id (mr_…) or an ISO-8601 date-time with offset',
    ]);
    expect(errors('timeline', { around: '2026-11-02T10:00:00+01:00' })).toEqual([]);
  });
});
