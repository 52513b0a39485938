import {
  LIMITS,
  type MemoryRecord,
  parseNamespace,
  RecordIdSchema,
  type Scrubber,
  scrubRecord,
  TeamPushBodySchema,
  TeamRecentQuerySchema,
  TeamSearchQuerySchema,
  teamNamespace,
} from '@kiro-learn/schema';
import type { Member, StorageBackend, StorageReads, TeamRecordInfo } from '@kiro-learn/storage';
import { type Context, Hono } from 'hono';
import { refuse } from '../errors.js';
import type { ReadJson } from '../host.js';
import { parseWith, readJsonBody } from '../http.js';
import { requestMember } from './members.js';

/** A ranked search as the collector's retrieval ranks (lexical, and semantic when on). */
export type RankedSearch = (query: {
  namespace: string;
  query: string;
  limit: number;
}) => Promise<Array<{ record: MemoryRecord; score: number }>>;

/** What the team server's routes run over. */
export interface TeamServerOptions {
  /** Where shared records are written, with their author, revision and tombstones. */
  storage: Pick<StorageBackend, 'putTeamRecord' | 'deleteTeamRecord'>;
  /** Where records and their authors are read (the collector's reader thread, or storage). */
  reads: Pick<StorageReads, 'teamRecordInfo' | 'listRecords'>;
  /** The server's own scrubber: a pushed record is scrubbed again, whatever the member did. */
  scrubber: Scrubber;
  /** The ranking of `GET /v1/team/search`. */
  search: RankedSearch;
  /** Whether the server has a token of its own (sent to a team route, it answers 403, not 401). */
  serverToken: boolean;
  /** The server's version, in `whoami`. */
  version: string;
  /** Makes a stored record searchable by meaning before the push returns; none when omitted. */
  embedRecords?: (records: readonly MemoryRecord[]) => Promise<void>;
  /**
   * Told about every push and delete and its outcome (`stored`, `stale`, `forbidden`,
   * `gone`, `conflict`; `deleted`, `missing`, `forbidden`): the collector's metrics.
   */
  onWrite?: (op: 'push' | 'delete', outcome: string) => void;
  /** The body reader (the collector's bounds nesting too); readJsonBody when omitted. */
  readJson?: ReadJson;
}

/**
 * The member the request's token names: every team route acts for a member, within their
 * team. No member token → 401 (the server's own token is no member: 403).
 */
function memberOf(c: Context, options: TeamServerOptions): Member {
  const member = requestMember(c);
  if (member) return member;
  const sentToken = /^Bearer\s+\S/i.test(c.req.header('authorization') ?? '');
  if (sentToken && options.serverToken) {
    throw refuse(
      403,
      "the team routes act for a member: send a member's token (kiro-learn team add-member), not the server's",
    );
  }
  throw refuse(
    401,
    'a member token is required: send Authorization: Bearer <token from kiro-learn team add-member>',
    undefined,
    { 'WWW-Authenticate': 'Bearer' },
  );
}

/**
 * The namespace of a team's records of one project. Its actor part is `team:<team>`, which
 * no member's own namespace can have (a member name has no `:`). A namespace the scrubber
 * would change is refused, as the collector refuses it for events and records.
 */
function scope(options: TeamServerOptions, member: Member, projectId: string): string {
  const namespace = teamNamespace(member.team, projectId);
  if (options.scrubber.text(namespace) !== namespace) {
    throw refuse(
      400,
      'namespace contains text the privacy scrubber redacts (a secret or a <private> tag); choose another actor or project id',
    );
  }
  return namespace;
}

/**
 * `/v1/team/*`: what members share through a team server (issue #18's wire contract).
 * Records live as ordinary memory records in their team's namespace per project, with
 * their author and revision beside them (storage's team records).
 */
export function teamRoutes(options: TeamServerOptions): Hono {
  const app = new Hono();
  const { storage, reads, scrubber, search } = options;
  const readJson = options.readJson ?? readJsonBody;
  const recordId = (raw: string) => parseWith(RecordIdSchema, raw, 'record_id');

  /**
   * Records with their authors. A record of the namespace that no member of this team
   * shared (one the server's own token saved there) is left out: only shared records leave.
   */
  async function withAuthors<T extends { record: { record_id: string } }>(
    member: Member,
    items: readonly T[],
  ): Promise<Array<T & { author: string }>> {
    const info = await reads.teamRecordInfo(items.map((item) => item.record.record_id));
    const byId = new Map<string, TeamRecordInfo>(info.map((i) => [i.recordId, i]));
    return items.flatMap((item) => {
      const found = byId.get(item.record.record_id);
      return found?.team === member.team ? [{ ...item, author: found.author }] : [];
    });
  }

  app.get('/whoami', (c) => {
    const member = memberOf(c, options);
    return c.json({
      team: member.team,
      member: member.name,
      role: member.role,
      version: options.version,
    });
  });

  app.put('/records/:record_id', async (c) => {
    const member = memberOf(c, options);
    const id = recordId(c.req.param('record_id'));
    const body = parseWith(
      TeamPushBodySchema,
      await readJson(c, LIMITS.requestBytes),
      'team record',
    );
    if (body.record.record_id !== id) {
      throw refuse(400, 'invalid team record', {
        'record.record_id': `must be the record_id of the path (${id})`,
      });
    }
    // The server scopes the record (its namespace in the body is ignored) and scrubs it
    // with its own scrubber, whatever the member's machine did.
    const record = scrubRecord(
      { ...body.record, namespace: scope(options, member, body.project_id) },
      scrubber,
    );
    const outcome = await storage.putTeamRecord({
      record,
      team: member.team,
      member: member.name,
      admin: member.role === 'admin',
      revision: body.revision,
    });
    options.onWrite?.('push', outcome.status);
    switch (outcome.status) {
      case 'stored':
        // Searchable by meaning once the push returns.
        await options.embedRecords?.([record]);
        return c.json({ record_id: id, stored: true });
      case 'stale':
        return c.json({ record_id: id, stored: false });
      case 'forbidden':
        throw refuse(
          403,
          `memory record ${id} was shared by ${outcome.author}: only they or an admin of the team may change it`,
          { author: outcome.author },
        );
      case 'gone':
        // Deleted by its author or an admin: an edit pushed later must not bring it back.
        // The member's outbox takes 410 as done.
        throw refuse(
          410,
          `memory record ${id} was deleted from your team's shared records at ${outcome.deletedAt}; it is not taken again`,
          { deleted_at: outcome.deletedAt },
        );
      case 'conflict': {
        if (outcome.namespace === undefined) {
          throw refuse(
            409,
            `memory record ${id} exists on this server outside your team's shared records; share it under a new record_id`,
          );
        }
        // As locally (POST /v1/memories answers 409 for an id that exists anywhere): a
        // record stays in the project it was first shared to, so no push moves it.
        const projectId = parseNamespace(outcome.namespace)?.projectId ?? outcome.namespace;
        throw refuse(
          409,
          `memory record ${id} is shared in your team's project ${projectId}; a record stays in the project it was first shared to: share it under a new record_id`,
          { project_id: projectId },
        );
      }
    }
  });

  app.delete('/records/:record_id', async (c) => {
    const member = memberOf(c, options);
    const id = recordId(c.req.param('record_id'));
    const outcome = await storage.deleteTeamRecord({
      recordId: id,
      team: member.team,
      member: member.name,
      admin: member.role === 'admin',
    });
    options.onWrite?.('delete', outcome);
    if (outcome === 'missing') throw refuse(404, `no shared memory record ${id} in your team`);
    if (outcome === 'forbidden') {
      throw refuse(
        403,
        `memory record ${id} was shared by another member: only they or an admin of the team may delete it`,
      );
    }
    return c.json({ deleted: true as const });
  });

  app.get('/search', async (c) => {
    const member = memberOf(c, options);
    const q = parseWith(TeamSearchQuerySchema, c.req.query(), 'query');
    const hits = await search({
      namespace: scope(options, member, q.project),
      query: q.query,
      limit: q.limit,
    });
    const items = await withAuthors(
      member,
      hits.map((hit) => ({ record: hit.record, score: hit.score })),
    );
    return c.json({
      items: items.map((item) => ({ record: item.record, author: item.author, score: item.score })),
    });
  });

  app.get('/recent', async (c) => {
    const member = memberOf(c, options);
    const q = parseWith(TeamRecentQuerySchema, c.req.query(), 'query');
    const page = await reads.listRecords({
      namespace: scope(options, member, q.project),
      limit: q.limit,
    });
    const items = await withAuthors(
      member,
      page.items.map((record) => ({ record })),
    );
    return c.json({ items: items.map((item) => ({ record: item.record, author: item.author })) });
  });

  return app;
}
