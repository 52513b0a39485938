/** A failed request, with the collector's `{error, details}` when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly details: unknown;

  constructor(message: string, status: number, details?: unknown) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

const TOKEN_KEY = 'kiro-learn-token';

/**
 * A collector bound beyond loopback wants a bearer token. It lives in this tab's session
 * storage and travels in a header, never in a URL.
 */
export function authHeaders(): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

let onUnauthorized: () => void = () => {};
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch {
    throw new ApiError('the collector is not reachable: is it running? (kiro-learn status)', 0);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401) onUnauthorized();
    const error = body as { error?: unknown; details?: unknown } | undefined;
    throw new ApiError(
      typeof error?.error === 'string' ? error.error : `${response.status} ${response.statusText}`,
      response.status,
      error?.details,
    );
  }
  return body as T;
}

/** A query string from the defined, non-empty values. */
export function qs(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** One line for an error, with the details the collector gave. */
export function describe(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const { details } = error;
  if (details === undefined) return error.message;
  return `${error.message}: ${Array.isArray(details) ? details.join('; ') : typeof details === 'string' ? details : JSON.stringify(details)}`;
}
