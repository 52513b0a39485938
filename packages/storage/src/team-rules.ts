import { LIMITS } from '@kiro-learn/schema';
import { StorageError } from './errors.js';

/**
 * A shared record's revision is its author's outbox position: a whole number from 1 to
 * LIMITS.teamRevision. Anything else (a bug, a hand-made push or import line) is refused,
 * on every backend: a stored revision near the top would make every later edit stale.
 */
export function checkRevision(revision: number): void {
  if (!Number.isInteger(revision) || revision < 1 || revision > LIMITS.teamRevision) {
    throw new StorageError(
      'invalid_option',
      `a shared record's revision must be a whole number from 1 to ${LIMITS.teamRevision}, not ${revision}`,
    );
  }
}
