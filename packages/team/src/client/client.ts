import type { RemoteHit } from '@kiro-learn/retrieval';
import {
  type MemoryRecord,
  TeamItemSchema,
  TeamItemsResponseSchema,
  TeamPushResponseSchema,
  type TeamWhoamiResponse,
  TeamWhoamiResponseSchema,
} from '@kiro-learn/schema';
import { TeamError } from '../errors.js';

/** Who this machine is on the team server (`GET /v1/team/whoami`). */
export type TeamIdentity = TeamWhoamiResponse;

/**
 * The member side of the team memory wire contract (@kiro-learn/schema's team shapes).
 * Every method throws TeamError: `unreachable` (retryable), `refused` (with the status;
 * retryable when the server may take it later) or `not_a_team_server`.
 */
export interface TeamClient {
  /** The server's base URL, without a trailing slash. */
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
  /** The server's ranked search over the team's records of a project, with authors. */
  search(
    projectId: string,
    query: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<RemoteHit[]>;
  /** The project's newest shared records (score 0). */
  recent(projectId: string, limit: number, signal?: AbortSignal): Promise<RemoteHit[]>;
}

const PutSchema = TeamPushResponseSchema.pick({ stored: true });

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
      throw new TeamError('unreachable', `team server ${base} unreachable (${why})`, {
        retryable: true,
      });
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

  function refused(what: string, status: number, json: unknown): TeamError {
    const error = (json as { error?: unknown } | undefined)?.error;
    const why = typeof error === 'string' ? `: ${error}` : '';
    const hint =
      status === 401
        ? ' (the member token is unknown or was revoked: ask a team admin, then kiro-learn team join again)'
        : status === 403
          ? ' (not allowed for this member)'
          : '';
    return new TeamError('refused', `team server refused ${what} with ${status}${why}${hint}`, {
      status,
      retryable: RETRYABLE.has(status),
    });
  }

  function items(json: unknown): RemoteHit[] {
    const parsed = TeamItemsResponseSchema.safeParse(json);
    if (!parsed.success) return [];
    return parsed.data.items.flatMap((item) => {
      const one = TeamItemSchema.safeParse(item);
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
      const parsed = TeamWhoamiResponseSchema.safeParse(json);
      if (!parsed.success) {
        throw new TeamError(
          'not_a_team_server',
          `${base} did not answer like a kiro-learn team server (GET /v1/team/whoami)`,
          { status },
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
