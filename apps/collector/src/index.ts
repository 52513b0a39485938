/**
 * kiro-learn: kiro-learn: the collector daemon, the kiro-learn CLI and the viewer.
 *
 * Everything exported here is public API.
 */
export const PACKAGE_NAME = 'kiro-learn';
