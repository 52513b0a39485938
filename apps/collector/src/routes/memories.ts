import {
  LIMITS,
  ListMemoriesQuerySchema,
  type MemoryRecord,
  MemoryRecordPatchSchema,
  NamespaceSchema,
  PostMemoryRequestSchema,
  parseNamespace,
  RecordIdSchema,
  SearchMemoriesQuerySchema,
  SupersedeRequestSchema,
  scrubRecordPatch,
} from '@kiro-learn/schema';
import { StorageError } from '@kiro-learn/storage';
import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { curate } from '../curate.js';
import { httpError } from '../errors.js';
import { readJson } from '../http/body.js';
import { parseWith } from '../http/respond.js';
import { parseRecord } from '../ingest.js';

/** How far a chain is followed each way (chains are a few records long). */
const CHAIN_LIMIT = 50;

/** The `supersedes` part of a saved record (the rest is the record itself). */
const SupersedesField = PostMemoryRequestSchema.pick({ supersedes: true });

/** A request body of at most `LIMITS.requestBytes`, parsed with `schema` (a 400 naming `what`). */
async function bodyAs<T>(c: Context, schema: z.ZodType<T>, what: string): Promise<T> {
  return parseWith(schema, await readJson(c, LIMITS.requestBytes), what);
}

/** `/v1/memories`: save, list, search, read, edit, delete memory records; supersession. */
export function memoryRoutes(ctx: AppContext): Hono {
  const app = new Hono();
  const recordId = (raw: string) => parseWith(RecordIdSchema, raw, 'record_id');

  app.post('/', async (c) => {
    const body = await readJson(c, LIMITS.requestBytes);
    const supersedes = parseWith(SupersedesField, body, 'memory record').supersedes ?? [];
    const scrubbed = parseRecord(ctx, body);
    // What it says it replaces must be records of its own project (checked before saving).
    if (supersedes.length > 0) {
      const found = await ctx.storage.getRecords(supersedes);
      const wrong = supersedes.filter(
        (id) =>
          id === scrubbed.record_id ||
          found.find((r) => r.record_id === id)?.namespace !== scrubbed.namespace,
      );
      if (wrong.length > 0) {
        throw httpError(
          400,
          'supersedes names records that are not other records of this project',
          { supersedes: wrong },
        );
      }
    }
    // A record id names one record forever: saving over it (possibly from another
    // project) is refused; PATCH edits a record in place.
    if (!(await ctx.storage.insertRecord(scrubbed))) {
      throw httpError(
        409,
        `memory record ${scrubbed.record_id} already exists; use PATCH /v1/memories/${scrubbed.record_id} to change it, or save with a new record_id`,
        { record_id: scrubbed.record_id },
      );
    }
    // The records it replaces: those it names, and those the supersession rules find.
    const superseded: string[] = [];
    for (const id of supersedes) {
      const linked = await ctx.storage.supersedeRecord({
        recordId: id,
        supersededBy: scrubbed.record_id,
        reason: 'named when this record was saved',
      });
      if (linked) superseded.push(id);
    }
    const found = await curate(ctx.storage, scrubbed.namespace, [scrubbed], { merge: false });
    for (const link of found.superseded) {
      if (superseded.includes(link.recordId)) continue;
      const linked = await ctx.storage.supersedeRecord({
        recordId: link.recordId,
        supersededBy: link.supersededBy,
        reason: link.reason,
      });
      if (linked) superseded.push(link.recordId);
    }
    // Searchable by meaning once the save returns (an MCP save comes this way too).
    await ctx.embedRecords([scrubbed]);
    return c.json({
      record_id: scrubbed.record_id,
      stored: true as const,
      ...(superseded.length ? { superseded } : {}),
    });
  });

  // The chain a record is part of: what it replaced (transitively), itself, what replaced it.
  app.get('/:record_id/chain', async (c) => {
    const id = recordId(c.req.param('record_id'));
    const record = await ctx.reads.getRecord(id);
    if (!record) throw httpError(404, `no memory record ${id}`);
    const chain = new Map<string, MemoryRecord>([[id, record]]);
    let current = record;
    while (current.superseded_by && chain.size < CHAIN_LIMIT) {
      const next = await ctx.reads.getRecord(current.superseded_by);
      if (!next || chain.has(next.record_id)) break;
      chain.set(next.record_id, next);
      current = next;
    }
    let frontier = [id];
    while (frontier.length > 0 && chain.size < CHAIN_LIMIT * 2) {
      const older = (await ctx.reads.listSuperseded(frontier)).filter(
        (r) => !chain.has(r.record_id),
      );
      for (const r of older) chain.set(r.record_id, r);
      frontier = older.map((r) => r.record_id);
    }
    const records = [...chain.values()].sort(
      (a, b) => a.created_at.localeCompare(b.created_at) || a.record_id.localeCompare(b.record_id),
    );
    return c.json({ record_id: id, current: current.record_id, records });
  });

  // Marks a record superseded by a newer one (what the viewer's "superseded by" does).
  app.post('/:record_id/supersession', async (c) => {
    const id = recordId(c.req.param('record_id'));
    const request = await bodyAs(c, SupersedeRequestSchema, 'supersession');
    try {
      const record = await ctx.storage.supersedeRecord({
        recordId: id,
        supersededBy: request.superseded_by,
        reason: request.reason ? ctx.scrubber.text(request.reason) : 'marked by hand',
      });
      if (!record) {
        throw httpError(404, `no memory record ${id} or ${request.superseded_by}`);
      }
      return c.json(record);
    } catch (error) {
      if (error instanceof StorageError && error.code === 'invalid_link') {
        throw httpError(400, error.message);
      }
      throw error;
    }
  });

  // Undoes a supersession: the record is current again.
  app.delete('/:record_id/supersession', async (c) => {
    const id = recordId(c.req.param('record_id'));
    const record = await ctx.storage.clearSupersession(id);
    if (!record) throw httpError(404, `no memory record ${id}`);
    return c.json(record);
  });

  app.get('/', async (c) => {
    const q = parseWith(ListMemoriesQuerySchema, c.req.query(), 'query');
    const page = await ctx.reads.listRecords({
      limit: q.limit,
      offset: q.offset,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.type ? { observationType: q.type } : {}),
      ...(q.current ? { current: true } : {}),
    });
    return c.json({ items: page.items, total: page.total, limit: q.limit, offset: q.offset });
  });

  app.get('/search', async (c) => {
    const q = parseWith(SearchMemoriesQuerySchema, c.req.query(), 'query');
    const records = await ctx.search({
      query: q.query,
      limit: q.limit,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.type ? { type: q.type } : {}),
      ...(q.file ? { file: q.file } : {}),
    });
    return c.json(records);
  });

  app.get('/:record_id', async (c) => {
    const id = recordId(c.req.param('record_id'));
    const record = await ctx.storage.getRecord(id);
    if (record) return c.json(record);
    // A teammate's record that a search in this project showed (team memory): the copy
    // kept of it, as one of this project's records, with its author.
    const namespace = c.req.query('namespace');
    if (namespace !== undefined) {
      const scope = parseWith(NamespaceSchema, namespace, 'namespace');
      const [copy] = await ctx.storage.sharing.teamRecords([id]);
      if (copy && copy.projectId === parseNamespace(scope)?.projectId) {
        return c.json({ ...copy.record, namespace: scope, author: copy.author });
      }
    }
    throw httpError(404, `no memory record ${id}`);
  });

  app.patch('/:record_id', async (c) => {
    const id = recordId(c.req.param('record_id'));
    const patch = await bodyAs(c, MemoryRecordPatchSchema, 'patch');
    const scrubbed = scrubRecordPatch(patch, ctx.scrubber);
    const record = await ctx.storage.updateRecord(id, scrubbed);
    if (!record) throw httpError(404, `no memory record ${id}`);
    // An edit of the text dropped the old vector (storage does that): embed the new text.
    await ctx.embedRecords([record]);
    return c.json(record);
  });

  app.delete('/:record_id', async (c) => {
    const id = recordId(c.req.param('record_id'));
    if (!(await ctx.storage.deleteRecord(id))) throw httpError(404, `no memory record ${id}`);
    return c.json({ deleted: true as const });
  });

  return app;
}
