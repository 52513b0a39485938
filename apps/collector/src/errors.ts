/** Error codes of the collector and its CLI. */
export type CollectorErrorCode =
  | 'invalid_settings'
  | 'port_in_use'
  /** Another collector holds the data dir's lock. */
  | 'data_dir_locked'
  | 'start_failed'
  | 'not_running'
  | 'usage'
  /** `kiro-learn install`: a pack or the npm install failed (nothing was replaced). */
  | 'install_failed'
  | 'http';

/**
 * The one error class of the kiro-learn app. `status` and `details` are set for errors
 * that become HTTP responses (`{error, details}`); the CLI prints `message` alone.
 */
export class CollectorError extends Error {
  readonly code: CollectorErrorCode;
  readonly status: number;
  readonly details: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: CollectorErrorCode,
    message: string,
    options: {
      status?: number;
      details?: unknown;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CollectorError';
    this.code = code;
    this.status = options.status ?? 500;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** An error that answers an HTTP request with `status` and `{error, details}`. */
export function httpError(
  status: number,
  message: string,
  details?: unknown,
  headers?: Record<string, string>,
): CollectorError {
  return new CollectorError('http', message, {
    status,
    details,
    ...(headers ? { headers } : {}),
  });
}
