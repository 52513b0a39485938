import {
  LIMITS,
  ListMemoriesQuerySchema,
  MemoryRecordPatchSchema,
  NamespaceSchema,
  parseNamespace,
  RecordIdSchema,
  SearchMemoriesQuerySchema,
  scrubRecordPatch,
} from '@kiro-learn/schema';
import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { httpError } from '../errors.js';
import { readJson } from '../http/body.js';
import { parseWith } from '../http/respond.js';
import { parseRecord } from '../ingest.js';

/** `/v1/memories`: save, list, search, read, edit, delete memory records. */
export function memoryRoutes(ctx: AppContext): Hono {
  const app = new Hono();
  const recordId = (raw: string) => parseWith(RecordIdSchema, raw, 'record_id');

  app.post('/', async (c) => {
    const scrubbed = parseRecord(ctx, await readJson(c, LIMITS.requestBytes));
    // A record id names one record forever: saving over it (possibly from another
    // project) is refused; PATCH edits a record in place.
    if (!(await ctx.storage.insertRecord(scrubbed))) {
      throw httpError(
        409,
        `memory record ${scrubbed.record_id} already exists; use PATCH /v1/memories/${scrubbed.record_id} to change it, or save with a new record_id`,
        { record_id: scrubbed.record_id },
      );
    }
    // Searchable by meaning once the save returns (an MCP save comes this way too).
    await ctx.embedRecords([scrubbed]);
    return c.json({ record_id: scrubbed.record_id, stored: true as const });
  });

  app.get('/', async (c) => {
    const q = parseWith(ListMemoriesQuerySchema, c.req.query(), 'query');
    const page = await ctx.reads.listRecords({
      limit: q.limit,
      offset: q.offset,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.type ? { observationType: q.type } : {}),
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
    const patch = parseWith(
      MemoryRecordPatchSchema,
      await readJson(c, LIMITS.requestBytes),
      'patch',
    );
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
