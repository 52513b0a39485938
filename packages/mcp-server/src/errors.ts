/** Error codes of this package; each becomes an `isError` tool result, never a thrown error. */
export type McpServerErrorCode =
  /** The collector is not listening (or not answering) at the configured address. */
  | 'collector_unreachable'
  /** The collector answered with an error status. */
  | 'collector_error'
  /** No record or event with that id in the current project. */
  | 'not_found'
  /** The id belongs to another project. */
  | 'other_project';

/** The one error class of @kiro-learn/mcp-server; its message is written for the model to act on. */
export class McpServerError extends Error {
  readonly code: McpServerErrorCode;

  constructor(code: McpServerErrorCode, message: string) {
    super(message);
    this.name = 'McpServerError';
    this.code = code;
  }
}
