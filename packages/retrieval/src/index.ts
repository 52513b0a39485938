/**
 * @kiro-learn/retrieval: Budgeted, ranked retrieval of memory records into prompt context.
 *
 * Everything exported here is public API.
 */
export const PACKAGE_NAME = '@kiro-learn/retrieval';
