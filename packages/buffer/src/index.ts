/**
 * @kiro-learn/buffer: Per-project pending-event buffer, extraction triggers, circuit breaker and compaction.
 *
 * Everything exported here is public API.
 */
export const PACKAGE_NAME = '@kiro-learn/buffer';
