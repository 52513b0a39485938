/** Error codes of @kiro-learn/team. */
export type TeamErrorCode =
  /** The team server could not be reached, or did not answer in time (`retryable`). */
  | 'unreachable'
  /** The team server answered a call with an error status (`status`; `retryable` or not). */
  | 'refused'
  /** What answered at the team URL is not a kiro-learn team server. */
  | 'not_a_team_server'
  /**
   * A team route refuses the request it is answering: the host answers `status` with
   * `{error: message, details?}` and `headers` (see `teamErrorResponse`).
   */
  | 'request';

/**
 * The one error class of @kiro-learn/team. The client throws it for a call the team server
 * did not take (`retryable`: the server is down, slow, overloaded or unreachable, try again
 * later; otherwise it refused this request for good, such as another member's record);
 * the routes throw it (`code: 'request'`) for a request they refuse.
 */
export class TeamError extends Error {
  readonly code: TeamErrorCode;
  /** The HTTP status: the server's answer (client), or the one to answer with (routes). */
  readonly status: number | undefined;
  /** Whether the same call may succeed later unchanged. */
  readonly retryable: boolean;
  /** A route's `details` of its `{error, details}` answer. */
  readonly details: unknown;
  /** A route's extra response headers (`WWW-Authenticate`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: TeamErrorCode,
    message: string,
    options: {
      status?: number;
      retryable?: boolean;
      details?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'TeamError';
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** A route's refusal: answered with `status` and `{error, details?}`. */
export function refuse(
  status: number,
  message: string,
  details?: unknown,
  headers?: Record<string, string>,
): TeamError {
  return new TeamError('request', message, {
    status,
    details,
    ...(headers ? { headers } : {}),
  });
}

/**
 * The answer to a route's refusal, for a host's error handler: `{error, details?}` with the
 * error's status and headers. Undefined for any other error (the host answers it its way).
 */
export function teamErrorResponse(error: unknown): Response | undefined {
  if (!(error instanceof TeamError) || error.code !== 'request') return undefined;
  const body =
    error.details === undefined
      ? { error: error.message }
      : { error: error.message, details: error.details };
  return new Response(JSON.stringify(body), {
    status: error.status ?? 400,
    headers: { 'Content-Type': 'application/json', ...error.headers },
  });
}
