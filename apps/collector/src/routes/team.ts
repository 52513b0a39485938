import {
  LIMITS,
  type MemoryRecord,
  RecordIdSchema,
  scrubRecord,
  TeamPushBodySchema,
  TeamRecentQuerySchema,
  TeamSearchQuerySchema,
  teamNamespace,
} from '@kiro-learn/schema';
import type { Member, TeamRecordInfo } from '@kiro-learn/storage';
import { type Context, Hono } from 'hono';
import type { AppContext } from '../context.js';
import { httpError } from '../errors.js';
import { readJson } from '../http/body.js';
import { parseWith } from '../http/respond.js';
import { refuseSecretNamespace } from '../ingest.js';
import { requestMember } from '../members.js';

/** A ranked search as the collector's retrieval ranks (lexical, and semantic when on). */
export type RankedSearch = (query: {
  namespace: string;
  query: string;
  limit: number;
}) => Promise<Array<{ record: MemoryRecord; score: number }>>;

/**
 * The member the request's token names: every team route acts for a member, within their
 * team. No member token → 401 (the server's own token is no member: 403).
 */
function memberOf(c: Context, ctx: AppContext): Member {
  const member = requestMember(c);
  if (member) return member;
  const sentToken = /^Bearer\s+\S/i.test(c.req.header('authorization') ?? '');
  if (sentToken && ctx.settings.token) {
    throw httpError(
      403,
      "the team routes act for a member: send a member's token (kiro-learn team add-member), not the server's",
    );
  }
  throw httpError(
    401,
    'a member token is required: send Authorization: Bearer <token from kiro-learn team add-member>',
    undefined,
    { 'WWW-Authenticate': 'Bearer' },
  );
}

/**
 * The namespace of a team's records of one project. Its actor part is `team:<team>`, which
 * no member's own namespace can have (a member name has no `:`).
 */
function scope(ctx: AppContext, member: Member, projectId: string): string {
  const namespace = teamNamespace(member.team, projectId);
  refuseSecretNamespace(ctx, namespace);
  return namespace;
}

/**
 * `/v1/team/*`: what members share through a team server (issue #18's wire contract).
 * Records live as ordinary memory records in their team's namespace per project, with
 * their author and revision beside them (storage's team records).
 */
export function teamRoutes(ctx: AppContext, search: RankedSearch): Hono {
  const app = new Hono();
  const recordId = (raw: string) => parseWith(RecordIdSchema, raw, 'record_id');

  /**
   * Records with their authors. A record of the namespace that no member of this team
   * shared (one the server's own token saved there) is left out: only shared records leave.
   */
  async function withAuthors<T extends { record: { record_id: string } }>(
    member: Member,
    items: readonly T[],
  ): Promise<Array<T & { author: string }>> {
    const info = await ctx.reads.teamRecordInfo(items.map((item) => item.record.record_id));
    const byId = new Map<string, TeamRecordInfo>(info.map((i) => [i.recordId, i]));
    return items.flatMap((item) => {
      const found = byId.get(item.record.record_id);
      return found?.team === member.team ? [{ ...item, author: found.author }] : [];
    });
  }

  app.get('/whoami', (c) => {
    const member = memberOf(c, ctx);
    return c.json({
      team: member.team,
      member: member.name,
      role: member.role,
      version: ctx.version,
    });
  });

  app.put('/records/:record_id', async (c) => {
    const member = memberOf(c, ctx);
    const id = recordId(c.req.param('record_id'));
    const body = parseWith(
      TeamPushBodySchema,
      await readJson(c, LIMITS.requestBytes),
      'team record',
    );
    if (body.record.record_id !== id) {
      throw httpError(400, 'invalid team record', {
        'record.record_id': `must be the record_id of the path (${id})`,
      });
    }
    // The server scopes the record (its namespace in the body is ignored) and scrubs it
    // with its own scrubber, whatever the member's machine did.
    const record = scrubRecord(
      { ...body.record, namespace: scope(ctx, member, body.project_id) },
      ctx.scrubber,
    );
    const outcome = await ctx.storage.putTeamRecord({
      record,
      team: member.team,
      member: member.name,
      admin: member.role === 'admin',
      revision: body.revision,
    });
    ctx.metrics.teamWrites.inc({ op: 'push', outcome: outcome.status });
    switch (outcome.status) {
      case 'stored':
        // Searchable by meaning once the push returns.
        await ctx.embedRecords([record]);
        return c.json({ record_id: id, stored: true });
      case 'stale':
        return c.json({ record_id: id, stored: false });
      case 'forbidden':
        throw httpError(
          403,
          `memory record ${id} was shared by ${outcome.author}: only they or an admin of the team may change it`,
          { author: outcome.author },
        );
      case 'gone':
        // Deleted by its author or an admin: an edit pushed later must not bring it back.
        // The member's outbox takes 410 as done.
        throw httpError(
          410,
          `memory record ${id} was deleted from your team's shared records at ${outcome.deletedAt}; it is not taken again`,
          { deleted_at: outcome.deletedAt },
        );
      case 'conflict':
        throw httpError(
          409,
          `memory record ${id} exists on this server outside your team's shared records; share it under a new record_id`,
        );
    }
  });

  app.delete('/records/:record_id', async (c) => {
    const member = memberOf(c, ctx);
    const id = recordId(c.req.param('record_id'));
    const outcome = await ctx.storage.deleteTeamRecord({
      recordId: id,
      team: member.team,
      member: member.name,
      admin: member.role === 'admin',
    });
    ctx.metrics.teamWrites.inc({ op: 'delete', outcome });
    if (outcome === 'missing') throw httpError(404, `no shared memory record ${id} in your team`);
    if (outcome === 'forbidden') {
      throw httpError(
        403,
        `memory record ${id} was shared by another member: only they or an admin of the team may delete it`,
      );
    }
    return c.json({ deleted: true as const });
  });

  app.get('/search', async (c) => {
    const member = memberOf(c, ctx);
    const q = parseWith(TeamSearchQuerySchema, c.req.query(), 'query');
    const hits = await search({
      namespace: scope(ctx, member, q.project),
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
    const member = memberOf(c, ctx);
    const q = parseWith(TeamRecentQuerySchema, c.req.query(), 'query');
    const page = await ctx.reads.listRecords({
      namespace: scope(ctx, member, q.project),
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
