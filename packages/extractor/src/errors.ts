/** Error codes of this package. */
export type ExtractorErrorCode =
  /** The agent command could not be started (not installed, not executable). */
  | 'spawn_failed'
  /** The agent process exited (or crashed) before the turn finished. */
  | 'agent_exited'
  /** The agent did not finish within the timeout. */
  | 'timeout'
  /** The agent broke the ACP protocol (an error response, a refused session). */
  | 'protocol'
  /** Every attempt produced output that is neither records nor `<skip/>`. */
  | 'garbage'
  /** A configuration value cannot work (an empty command, a limit below 1). */
  | 'invalid_config'
  /** The caller's AbortSignal stopped the extraction (the collector shutting down). */
  | 'aborted';

/**
 * The one error class of @kiro-learn/extractor. `stderr` is the agent's, kept for the log;
 * `attempts` counts the agent sessions spent before giving up.
 */
export class ExtractorError extends Error {
  readonly code: ExtractorErrorCode;
  readonly stderr: string | undefined;
  readonly attempts: number | undefined;

  constructor(
    code: ExtractorErrorCode,
    message: string,
    options?: { stderr?: string; cause?: unknown; attempts?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ExtractorError';
    this.code = code;
    this.stderr = options?.stderr;
    this.attempts = options?.attempts;
  }
}
