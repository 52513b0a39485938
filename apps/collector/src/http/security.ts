import { timingSafeEqual } from 'node:crypto';
import type { Member } from '@kiro-learn/storage';
import { hashToken, type RateLimiter, setRequestMember } from '@kiro-learn/team';
import type { MiddlewareHandler } from 'hono';
import { isLoopbackHost } from '../config/settings.js';
import { httpError } from '../errors.js';
import { incomingOf, requestHeader } from './node.js';

export interface SecurityOptions {
  /** The address the collector is bound to. */
  host: string;
  /** The port it actually listens on (known only after listen, for port 0). */
  port: () => number;
  /** Bearer token every request must carry, when set. */
  token?: string;
  /**
   * Looks a member token up by its SHA-256 (members of a team server). A request bearing
   * one is the member's: it reaches the team routes (`/v1/team/…`) and the public ones,
   * and is refused (403) everywhere else.
   */
  findMember?: (tokenHash: string) => Promise<Member | undefined>;
  /**
   * Rate limits on requests that carry a token: an address that sent too many wrong
   * tokens waits (its token is then not even checked), and each member has a request
   * rate. Past either: 429 with `Retry-After`.
   */
  limits?: RateLimiter;
  /** Told about each request a limit refused (`address` or `member`): the metrics. */
  onLimited?: (limit: 'address' | 'member') => void;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Local security (DESIGN.md §3): a page in the user's browser must not be able to write a
 * memory that later lands in the agent's prompt.
 * - `Host` must be a loopback name with our port (defeats DNS rebinding) while bound to
 *   loopback; off loopback the bearer token guards instead.
 * - An `Origin` (or `Sec-Fetch-Site: cross-site`) from anywhere but our own origin is refused.
 * - With a token, every request but `/healthz` and the viewer's page (and `/`, its redirect)
 *   must carry it.
 * - Bodies must be `application/json` (or `application/x-ndjson`): browsers cannot send that cross-origin without a
 *   preflight we never answer.
 */
export function security(options: SecurityOptions): MiddlewareHandler {
  const loopback = isLoopbackHost(options.host);
  const token = options.token ? Buffer.from(options.token) : undefined;

  return async (c, next) => {
    const port = options.port();
    const host = requestHeader(c, 'host');
    if (loopback && !isOwnAuthority(host, port)) {
      throw httpError(403, 'Host header is not this collector (loopback name and port expected)');
    }
    const origin = requestHeader(c, 'origin');
    if (origin !== undefined && !isOwnOrigin(origin, host, port, loopback)) {
      throw httpError(403, 'cross-origin requests are refused');
    }
    if (requestHeader(c, 'sec-fetch-site') === 'cross-site') {
      throw httpError(403, 'cross-site requests are refused');
    }
    const bearer = bearerOf(requestHeader(c, 'authorization'));
    const address = incomingOf(c)?.socket.remoteAddress ?? 'in-process';
    const limits = options.limits;
    if (bearer !== undefined && limits) {
      // Checked before the token: while an address is held back, a guess tells it nothing.
      const wait = limits.addressWait(address);
      if (wait > 0) {
        options.onLimited?.('address');
        throw tooMany(wait, 'too many requests with a wrong token from this address');
      }
    }
    let authenticated = bearer !== undefined && token !== undefined && sameToken(bearer, token);
    if (bearer !== undefined && !authenticated && options.findMember) {
      const member = await options.findMember(hashToken(bearer));
      if (member && limits) {
        const wait = limits.memberWait(member.name);
        if (wait > 0) {
          options.onLimited?.('member');
          throw tooMany(wait, `too many requests with ${member.name}'s token`);
        }
      }
      if (member) {
        // A member shares and reads their team's records, nothing else: the rest of the
        // API (every namespace's events and records, forget, export, settings) is the
        // server's, behind its own token.
        if (!isTeamRoute(c.req.path) && !isPublic(c.req.method, c.req.path)) {
          throw httpError(
            403,
            "a member token reaches the team routes only (/v1/team/…); this route needs the server's token",
          );
        }
        setRequestMember(c, member);
        authenticated = true;
      } else if (!token && !isPublic(c.req.method, c.req.path)) {
        // No token is required here, but a wrong one is a client to set right.
        limits?.failedAuth(address);
        throw httpError(
          401,
          "unknown bearer token: not this server's token nor a member's",
          undefined,
          {
            'WWW-Authenticate': 'Bearer',
          },
        );
      }
    }
    if (token && !isPublic(c.req.method, c.req.path) && !authenticated) {
      if (bearer !== undefined) limits?.failedAuth(address);
      throw httpError(
        401,
        'a bearer token is required: send Authorization: Bearer <token>',
        undefined,
        {
          'WWW-Authenticate': 'Bearer',
        },
      );
    }
    if (BODY_METHODS.has(c.req.method) && !isJson(requestHeader(c, 'content-type'))) {
      throw httpError(415, 'Content-Type must be application/json');
    }
    await next();
  };
}

/** `host[:port]` of a loopback name with our port. */
function isOwnAuthority(authority: string | undefined, port: number): boolean {
  if (!authority) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  if (!match) return false;
  return isLoopbackHost(match[1]!) && Number(match[2] ?? 80) === port;
}

function isOwnOrigin(
  origin: string,
  host: string | undefined,
  port: number,
  loopback: boolean,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
  if (url.protocol !== 'http:') return false;
  if (loopback) return isOwnAuthority(url.host, port);
  return url.host === host;
}

/** 429 with `Retry-After` (seconds). */
function tooMany(seconds: number, why: string) {
  return httpError(
    429,
    `${why}: try again in ${seconds} s`,
    { retry_after_seconds: seconds },
    { 'Retry-After': String(seconds) },
  );
}

function isTeamRoute(path: string): boolean {
  return path === '/v1/team' || path.startsWith('/v1/team/');
}

function isPublic(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return (
    path === '/' || path === '/healthz' || (path.startsWith('/ui') && !path.startsWith('/ui/api/'))
  );
}

function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match ? match[1]!.trim() : undefined;
}

function sameToken(bearer: string, token: Buffer): boolean {
  const given = Buffer.from(bearer);
  return given.length === token.length && timingSafeEqual(given, token);
}

/** JSON, or JSON Lines (an import): neither is a type a page may send cross-origin unasked. */
function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return type === 'application/json' || type === 'application/x-ndjson';
}
