/**
 * @kiro-learn/shims: Hook adapters for Kiro CLI, Kiro IDE and Claude Code, and the init installers.
 *
 * Everything exported here is public API.
 */
export const PACKAGE_NAME = '@kiro-learn/shims';
