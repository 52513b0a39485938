/**
 * @kiro-learn/mcp-server: MCP server exposing kiro-learn memory to agents over stdio.
 *
 * Everything exported here is public API.
 */
export const PACKAGE_NAME = '@kiro-learn/mcp-server';
