import {
  LIMITS,
  ListMemoriesQuerySchema,
  type MemoryRecord,
  MemoryRecordPatchSchema,
  RecordIdSchema,
  SearchMemoriesQuerySchema,
} from '@kiro-learn/schema';
import { Hono } from 'hono';
import type { AppContext } from '../context.js';
import { httpError } from '../errors.js';
import { readJson } from '../http/body.js';
import { parseWith } from '../http/respond.js';
import { parseRecord } from '../ingest.js';
import { requestMember } from '../members.js';

/** `/v1/memories`: save, list, search, read, edit, delete memory records. */
export function memoryRoutes(ctx: AppContext): Hono {
  const app = new Hono();
  const recordId = (raw: string) => parseWith(RecordIdSchema, raw, 'record_id');

  app.post('/', async (c) => {
    // A member's record is theirs, whatever actor its namespace named.
    const scrubbed = parseRecord(ctx, await readJson(c, LIMITS.requestBytes), requestMember(c));
    await ctx.storage.putRecord(scrubbed);
    // Searchable by meaning once the save returns (an MCP save comes this way too).
    await ctx.embedRecords([scrubbed]);
    return c.json({ record_id: scrubbed.record_id, stored: true as const });
  });

  app.get('/', async (c) => {
    const q = parseWith(ListMemoriesQuerySchema, c.req.query(), 'query');
    const page = await ctx.storage.listRecords({
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
    if (!record) throw httpError(404, `no memory record ${id}`);
    return c.json(record);
  });

  app.patch('/:record_id', async (c) => {
    const id = recordId(c.req.param('record_id'));
    const patch = parseWith(
      MemoryRecordPatchSchema,
      await readJson(c, LIMITS.requestBytes),
      'patch',
    );
    const scrubbed = parseWith(
      MemoryRecordPatchSchema,
      scrubPatch(ctx, patch),
      'patch after scrubbing',
    );
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

function scrubPatch(ctx: AppContext, patch: Partial<MemoryRecord>): Partial<MemoryRecord> {
  const text = ctx.scrubber.text;
  return {
    ...patch,
    ...(patch.title !== undefined ? { title: text(patch.title) } : {}),
    ...(patch.summary !== undefined ? { summary: text(patch.summary) } : {}),
    ...(patch.facts ? { facts: patch.facts.map(text) } : {}),
    ...(patch.concepts ? { concepts: patch.concepts.map(text) } : {}),
    ...(patch.files_touched ? { files_touched: patch.files_touched.map(text) } : {}),
  };
}
