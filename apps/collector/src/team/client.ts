import { type MemoryRecord, MemoryRecordSchema } from '@kiro-learn/schema';
import { z } from 'zod';

/** Who this machine is on the team server (`GET /v1/team/whoami`). */
export interface TeamIdentity {
  team: string;
  member: string;
  role: string;
  version?: string;
}

/** A record the team server found, with its author. */
export interface TeamItem {
  record: MemoryRecord;
  author: string;
  /** Search only: the server's score, higher is better. */
  score: number;
}

/**
 * A refused or failed call to the team server. `retryable`: the server is down, slow,
 * overloaded or unreachable (try again later); otherwise it refused this request for good
 * (a record it will never take, another member's record). `status` is the HTTP status.
 */
export class TeamRequestError extends Error {
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(message: string, status: number | undefined, retryable: boolean) {
    super(message);
    this.name = 'TeamRequestError';
    this.status = status;
    this.retryable = retryable;
  }
}

/** The member side of the team memory wire contract (docs/team-memory.md). */
export interface TeamClient {
  readonly url: string;
  whoami(signal?: AbortSignal): Promise<TeamIdentity>;
  /**
   * Idempotent by revision: `stored` false when the server had this revision or a newer one.
   * `gone`: the record was deleted on the server (by its author or an admin), which does not
   * take it again (410): nothing is left to push.
   */
  putRecord(
    projectId: string,
    revision: number,
    record: MemoryRecord,
    signal?: AbortSignal,
  ): Promise<{ stored: boolean; gone?: true }>;
  /** Deletes a shared record there; one the server does not know counts as deleted. */
  deleteRecord(recordId: string, signal?: AbortSignal): Promise<void>;
  search(
    projectId: string,
    query: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<TeamItem[]>;
  recent(projectId: string, limit: number, signal?: AbortSignal): Promise<TeamItem[]>;
}

const IdentitySchema = z.looseObject({
  team: z.string(),
  member: z.string(),
  role: z.string(),
  version: z.string().optional(),
});
const PutSchema = z.looseObject({ stored: z.boolean() });
const ItemsSchema = z.looseObject({ items: z.array(z.unknown()) });
const ItemSchema = z.looseObject({
  record: MemoryRecordSchema,
  author: z.string().min(1).max(128),
  score: z.number().optional(),
});

/** Longest a call waits when the caller gives no signal (the outbox, `team join`). */
const DEFAULT_TIMEOUT_MS = 10_000;
/** Most of a prompt sent as the search query (it goes in the URL). */
const MAX_QUERY_CHARS = 2000;
/** The server's cap on `limit` of search and recent. */
const MAX_LIMIT = 50;

/** Statuses worth retrying: the request may succeed later unchanged (401: see createTeamClient). */
const RETRYABLE = new Set([401, 408, 425, 429, 500, 502, 503, 504]);

/**
 * A client of a team memory server at `url` with a member token. Every call carries the
 * token as a bearer; answers are validated (a record that is not a valid MemoryRecord is
 * left out, not trusted). A 401 counts as retryable: a token just re-issued by an admin,
 * or a server restarting behind a proxy, should not make the outbox drop records; `team
 * status` shows the refusal meanwhile.
 */
export function createTeamClient(options: { url: string; token: string }): TeamClient {
  const base = options.url.replace(/\/+$/, '');
  const headers = {
    Authorization: `Bearer ${options.token}`,
    Accept: 'application/json',
  };

  async function call(
    method: string,
    path: string,
    signal: AbortSignal | undefined,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ?? AbortSignal.timeout(DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      const why = cause?.code ?? (error instanceof Error ? error.message : String(error));
      throw new TeamRequestError(`team server ${base} unreachable (${why})`, undefined, true);
    }
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  }

  function refused(what: string, status: number, json: unknown): TeamRequestError {
    const error = (json as { error?: unknown } | undefined)?.error;
    const why = typeof error === 'string' ? `: ${error}` : '';
    const hint =
      status === 401
        ? ' (the member token is unknown or was revoked: ask a team admin, then kiro-learn team join again)'
        : status === 403
          ? ' (not allowed for this member)'
          : '';
    return new TeamRequestError(
      `team server refused ${what} with ${status}${why}${hint}`,
      status,
      RETRYABLE.has(status),
    );
  }

  function items(json: unknown): TeamItem[] {
    const parsed = ItemsSchema.safeParse(json);
    if (!parsed.success) return [];
    return parsed.data.items.flatMap((item) => {
      const one = ItemSchema.safeParse(item);
      return one.success
        ? [{ record: one.data.record, author: one.data.author, score: one.data.score ?? 0 }]
        : [];
    });
  }

  const limitOf = (n: number) => Math.max(1, Math.min(MAX_LIMIT, Math.floor(n)));

  return {
    url: base,

    async whoami(signal) {
      const { status, json } = await call('GET', '/v1/team/whoami', signal);
      if (status !== 200) throw refused('whoami', status, json);
      const parsed = IdentitySchema.safeParse(json);
      if (!parsed.success) {
        throw new TeamRequestError(
          `${base} did not answer like a kiro-learn team server (GET /v1/team/whoami)`,
          status,
          false,
        );
      }
      return parsed.data;
    },

    async putRecord(projectId, revision, record, signal) {
      const { status, json } = await call(
        'PUT',
        `/v1/team/records/${encodeURIComponent(record.record_id)}`,
        signal,
        { project_id: projectId, revision, record },
      );
      if (status === 410) return { stored: false, gone: true };
      if (status !== 200) throw refused(`record ${record.record_id}`, status, json);
      return { stored: PutSchema.safeParse(json).data?.stored ?? true };
    },

    async deleteRecord(recordId, signal) {
      const { status, json } = await call(
        'DELETE',
        `/v1/team/records/${encodeURIComponent(recordId)}`,
        signal,
      );
      if (status === 200 || status === 404) return;
      throw refused(`deleting ${recordId}`, status, json);
    },

    async search(projectId, query, limit, signal) {
      // A prompt can be 16 000 characters; its start says enough to the server's search.
      const q = new URLSearchParams({
        project: projectId,
        query: query.slice(0, MAX_QUERY_CHARS),
        limit: String(limitOf(limit)),
      });
      const { status, json } = await call('GET', `/v1/team/search?${q}`, signal);
      if (status !== 200) throw refused('search', status, json);
      return items(json);
    },

    async recent(projectId, limit, signal) {
      const q = new URLSearchParams({ project: projectId, limit: String(limitOf(limit)) });
      const { status, json } = await call('GET', `/v1/team/recent?${q}`, signal);
      if (status !== 200) throw refused('recent', status, json);
      return items(json);
    },
  };
}
