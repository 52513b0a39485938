import { formatIssues } from '@kiro-learn/schema';
import { CORRUPT_DATABASE_HELP, StorageError } from '@kiro-learn/storage';
import { TeamError } from '@kiro-learn/team';
import type { Context } from 'hono';
import type { z } from 'zod';
import { CollectorError, httpError } from '../errors.js';

/** Parses with a schema, or throws a 400 listing every issue as `dot.path: message`. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const result = schema.safeParse(input);
  if (!result.success) throw httpError(400, `invalid ${what}`, formatIssues(result.error));
  return result.data;
}

/** The query string as a plain object (first value of each name). */
export function queryOf(c: Context): Record<string, string> {
  return c.req.query();
}

/** A refusal's `{error, details?}`: its message, and its details when it has any. */
const bodyOf = (error: { message: string; details?: unknown }) =>
  error.details === undefined
    ? { error: error.message }
    : { error: error.message, details: error.details };

/** Turns any thrown value into `{error, details?}`, never a stack trace. */
export function errorResponse(error: unknown): Response {
  let status = 500;
  let body: { error: string; details?: unknown } = { error: 'internal error' };
  let headers: Record<string, string> = {};
  if (error instanceof CollectorError) {
    status = error.status;
    body = bodyOf(error);
    headers = { ...error.headers };
  } else if (error instanceof TeamError && error.code === 'request') {
    // A team route's refusal (@kiro-learn/team): the same `{error, details}` shape.
    status = error.status ?? 400;
    body = bodyOf(error);
    headers = { ...error.headers };
  } else if (error instanceof StorageError && error.code === 'invalid_cursor') {
    status = 400;
    body = { error: 'invalid cursor', details: error.message };
  } else if (error instanceof StorageError && error.code === 'closed') {
    status = 503;
    body = { error: 'the collector is shutting down' };
  } else if (isDiskFull(error)) {
    // Nothing was stored: the client keeps the event (a hook spools it) and retries later.
    status = 507;
    body = {
      error: 'disk full',
      details:
        'the disk holding the kiro-learn data dir is full; nothing was stored. Free some space; clients retry.',
    };
  } else if (isCorruption(error)) {
    status = 500;
    body = { error: 'the database is damaged', details: CORRUPT_DATABASE_HELP };
  } else if (
    error instanceof StorageError &&
    (error.code === 'unavailable' || error.code === 'timeout')
  ) {
    // The database is restarting, out of connections or slow: nothing was acknowledged,
    // so the client may retry (the shims spool the event and replay it).
    status = 503;
    body = {
      error:
        error.code === 'timeout'
          ? 'the database took too long; try again'
          : 'the database is unavailable; try again',
    };
    headers = { 'Retry-After': '1' };
  }
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const codeOf = (error: unknown) => (error as { code?: unknown } | undefined)?.code;

/** SQLite's "database or disk is full", or the file system's ENOSPC. */
export function isDiskFull(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

function isCorruption(error: unknown): boolean {
  const code = codeOf(error);
  return (
    (error instanceof StorageError && code === 'corrupt') ||
    (typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code))
  );
}
