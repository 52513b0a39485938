import { parseNamespace } from '@kiro-learn/schema';
import type { ForgetScope } from './backend.js';

/**
 * Which kept copies of teammates' records (team_record_copies: the ones that went into a
 * context here, kept for the viewer) a forget covers, the same on both backends. They hold
 * a teammate's text in this data dir, so a forget of a project, a record, a time or
 * everything takes them too: by the record's id, the project id of the namespace, or when
 * they were last seen here. Events and sessions are this machine's own: no copy is made
 * from them. Undefined when the scope covers none.
 */
export type CopiesCondition =
  | { column: 'all' }
  | { column: 'team_record_id' | 'project_id'; op: '='; value: string }
  | { column: 'seen_at'; op: '<'; value: string };

export function teamCopiesScope(scope: ForgetScope): CopiesCondition[] | undefined {
  if ('all' in scope) return [{ column: 'all' }];
  if ('record' in scope) return [{ column: 'team_record_id', op: '=', value: scope.record }];
  if ('event' in scope || 'session' in scope) return undefined;
  const project =
    scope.namespace === undefined ? undefined : parseNamespace(scope.namespace)?.projectId;
  if (scope.namespace !== undefined && project === undefined) return undefined;
  const inProject =
    project === undefined
      ? []
      : [{ column: 'project_id' as const, op: '=' as const, value: project }];
  if ('before' in scope) {
    return [
      { column: 'seen_at', op: '<', value: new Date(scope.before).toISOString() },
      ...inProject,
    ];
  }
  return inProject;
}
