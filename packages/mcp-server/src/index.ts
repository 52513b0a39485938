/**
 * @kiro-learn/mcp-server: MCP server exposing kiro-learn memory to agents over stdio.
 *
 * The bin `kiro-learn-mcp` is what agents start; the exports below let other code embed the
 * server (on any MCP transport) or reuse its pieces. Everything exported here is public API.
 */

// Configuration: the collector address and project directory the bin uses.
export { DEFAULT_TIMEOUT_MS, type McpServerConfig, resolveConfig } from './config.js';
// The one error class, with its codes.
export { McpServerError, type McpServerErrorCode } from './errors.js';
// Tool input schemas (zod), for clients that want to validate before calling.
export { TOOL_INPUTS, type ToolArgs, type ToolName } from './inputs.js';
// The structured result of each tool (zod), as advertised in its outputSchema.
export { TOOL_OUTPUTS, type ToolOutput } from './outputs.js';
// The server: create one on any transport, or serve stdio as the bin does.
export { createMcpServer, runStdioServer, VERSION } from './server.js';
// The session-summary layout save_session_summary stores.
export {
  buildSessionSummary,
  type SessionSummaryInput,
  type SessionSummaryParts,
  SUMMARY_SECTIONS,
} from './summary.js';
