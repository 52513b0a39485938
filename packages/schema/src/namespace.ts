import { forbiddenCharacter } from './identifiers.js';
import { LIMITS } from './limits.js';

/** `/actor/<actor>/project/<project_id>/`, trailing slash required. */
export const NAMESPACE_PATTERN = /^\/actor\/([^/\s]+)\/project\/([^/\s]+)\/$/;

export interface NamespaceParts {
  actor: string;
  projectId: string;
}

function checkPart(name: string, value: string): void {
  if (value.length === 0 || value.length > LIMITS.namespacePartLength || /[/\s]/.test(value)) {
    throw new TypeError(
      `${name} must be 1-${LIMITS.namespacePartLength} characters without "/" or white space`,
    );
  }
  const forbidden = forbiddenCharacter(value);
  if (forbidden) throw new TypeError(`${name} ${forbidden}`);
}

/** Builds a namespace; throws a TypeError when a part cannot stand in one. */
export function buildNamespace(actor: string, projectId: string): string {
  checkPart('actor', actor);
  checkPart('projectId', projectId);
  return `/actor/${actor}/project/${projectId}/`;
}

/**
 * Parses a namespace, or returns undefined when it is not one: the pattern, each part's
 * length, and no control, bidi or unpaired-surrogate character (forbiddenCharacter).
 */
export function parseNamespace(namespace: string): NamespaceParts | undefined {
  if (forbiddenCharacter(namespace)) return undefined;
  const match = NAMESPACE_PATTERN.exec(namespace);
  if (!match || match[1]!.length > LIMITS.namespacePartLength) return undefined;
  if (match[2]!.length > LIMITS.namespacePartLength) return undefined;
  return { actor: match[1]!, projectId: match[2]! };
}

export function isNamespace(value: unknown): value is string {
  return typeof value === 'string' && parseNamespace(value) !== undefined;
}
