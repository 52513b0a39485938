import {
  formatIssues,
  LIMITS,
  NamespaceSchema,
  OBSERVATION_TYPES,
  RecordIdSchema,
} from '@kiro-learn/schema';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { assetLoader, DEFAULT_ASSETS_DIR, isAssetName } from './assets.js';
import type { ViewerDeps } from './deps.js';
import { localModels } from './models.js';
import { listProjects } from './projects.js';
import { summarizeEvent } from './summary.js';

/**
 * The page may load only what it ships with and talk only to its own origin: no CDN, no
 * inline script, no framing by another site.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HOUR_MS = 60 * 60 * 1000;
/** How long "extract now" waits for a refusal before answering that the run started. */
const START_WAIT_MS = 250;

const day = z.iso.date().or(z.iso.datetime({ offset: true }));
const page = {
  limit: z.coerce.number().int().min(1).max(LIMITS.listLimit).default(50),
  offset: z.coerce.number().int().min(0).default(0),
};
const MemoriesQuery = z.object({
  namespace: NamespaceSchema.optional(),
  type: z.enum(OBSERVATION_TYPES).optional(),
  since: day.optional(),
  until: day.optional(),
  ...page,
});
const ActivityQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
const RecordIdsQuery = z.object({
  ids: z
    .string()
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(RecordIdSchema).max(LIMITS.searchLimit)),
});
const ExtractBody = z.object({ namespace: NamespaceSchema });

function fail(
  c: Context,
  status: 400 | 404 | 409 | 500 | 501 | 503,
  error: string,
  details?: unknown,
): Response {
  return c.json(details === undefined ? { error } : { error, details }, status);
}

function parse<T>(c: Context, schema: z.ZodType<T>, input: unknown): T | Response {
  const result = schema.safeParse(input);
  return result.success ? result.data : fail(c, 400, 'invalid request', formatIssues(result.error));
}

/** A date alone means the whole day: `until=2026-11-21` includes that day's records. */
function untilTime(value: string): string {
  return value.length === 10 ? new Date(Date.parse(value) + 24 * HOUR_MS).toISOString() : value;
}

/**
 * The viewer: the bundled page at `/` and the few read models the collector's `/v1` API
 * does not have (projects with pending size and breaker state, extract now, health, a
 * date-filtered record list, a record's source events). Mount it at `/ui`.
 */
export function viewerApp(deps: ViewerDeps): Hono {
  const { storage } = deps;
  const models = deps.models ?? localModels(storage);
  const now = deps.now ?? Date.now;
  const load = assetLoader(deps.assetsDir ?? DEFAULT_ASSETS_DIR);
  const app = new Hono();

  app.onError((error, c) => fail(c, 500, 'viewer request failed', error.message));
  app.notFound((c) => fail(c, 404, 'not found', c.req.path));

  const serve = async (c: Context, name: string): Promise<Response> => {
    if (!isAssetName(name)) return fail(c, 404, 'not found', c.req.path);
    const asset = await load(name);
    if (!asset) {
      return fail(
        c,
        503,
        'viewer assets are missing',
        'build them: pnpm --filter kiro-learn build',
      );
    }
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': asset.type,
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // The page is tiny and changes with every upgrade; always revalidating is cheap.
      'Cache-Control': 'no-cache',
    });
  };
  // Mounted at /ui, this route also answers `/ui`, where the page's relative asset URLs
  // would resolve against `/`: send the browser to `/ui/` instead.
  app.get('/', async (c) =>
    c.req.path.endsWith('/') ? serve(c, 'index.html') : c.redirect(`${c.req.path}/`),
  );
  app.get('/:file{[a-z]+\\.(?:js|css)}', (c) => serve(c, c.req.param('file')));

  app.get('/api/activity', async (c) => {
    const q = parse(c, ActivityQuery, c.req.query());
    if (q instanceof Response) return q;
    return c.json(await models.activity(q.limit));
  });

  app.get('/api/memories', async (c) => {
    const q = parse(c, MemoriesQuery, c.req.query());
    if (q instanceof Response) return q;
    const result = await storage.listRecords({
      limit: q.limit,
      offset: q.offset,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.type ? { observationType: q.type } : {}),
      ...(q.since ? { since: new Date(q.since).toISOString() } : {}),
      ...(q.until ? { until: untilTime(q.until) } : {}),
    });
    return c.json({ items: result.items, total: result.total, limit: q.limit, offset: q.offset });
  });

  // Teammates' records as they went into a context here (team memory), read-only. A list,
  // so that asking about a record that is nobody's is an empty answer, not an error the
  // browser logs.
  app.get('/api/team-records', async (c) => {
    const q = parse(c, RecordIdsQuery, c.req.query());
    if (q instanceof Response) return q;
    const copies = deps.teamRecords ? await deps.teamRecords(q.ids) : [];
    return c.json({
      items: copies.map((copy) => ({
        record: copy.record,
        author: copy.author,
        project_id: copy.projectId,
        seen_at: copy.seenAt,
      })),
    });
  });

  app.get('/api/memories/:record_id/sources', async (c) => {
    const id = parse(c, RecordIdSchema, c.req.param('record_id'));
    if (id instanceof Response) return id;
    const q = parse(c, z.object(page), c.req.query());
    if (q instanceof Response) return q;
    const record = await storage.getRecord(id);
    if (!record) return fail(c, 404, 'memory record not found', id);
    const ids = record.source_event_ids.slice(q.offset, q.offset + q.limit);
    const found = new Map((await storage.getEvents(ids)).map((e) => [e.event_id, e]));
    return c.json({
      items: ids.map((eventId) => {
        const event = found.get(eventId);
        return event ? summarizeEvent(event) : { event_id: eventId, missing: true };
      }),
      total: record.source_event_ids.length,
      limit: q.limit,
      offset: q.offset,
    });
  });

  app.get('/api/titles', async (c) => {
    const q = parse(c, RecordIdsQuery, c.req.query());
    if (q instanceof Response) return q;
    const records = await storage.getRecords(q.ids);
    const titles = Object.fromEntries(records.map((r) => [r.record_id, r.title]));
    // A teammate's record a retrieval injected is not a local record: its kept copy names it.
    const missing = q.ids.filter((id) => !(id in titles));
    if (missing.length > 0 && deps.teamRecords) {
      for (const copy of await deps.teamRecords(missing)) {
        titles[copy.record.record_id] = copy.record.title;
      }
    }
    return c.json(titles);
  });

  // Where retrieved records came from, on a developer's machine in a team: the ids of
  // teammates' records with their author (ids left out are this machine's own records).
  app.get('/api/origins', async (c) => {
    const q = parse(c, RecordIdsQuery, c.req.query());
    if (q instanceof Response) return q;
    const copies = deps.teamRecords ? await deps.teamRecords(q.ids) : [];
    return c.json(
      Object.fromEntries(
        copies.map((copy) => [
          copy.record.record_id,
          { origin: 'team', author: copy.author, project_id: copy.projectId },
        ]),
      ),
    );
  });

  // Who shared the records of a team server's team namespaces (absent for any other record).
  app.get('/api/team', async (c) => {
    const q = parse(c, RecordIdsQuery, c.req.query());
    if (q instanceof Response) return q;
    const info = await storage.teamRecordInfo(q.ids);
    return c.json(
      Object.fromEntries(
        info.map((i) => [
          i.recordId,
          { team: i.team, author: i.author, revision: i.revision, updated_at: i.updatedAt },
        ]),
      ),
    );
  });

  app.get('/api/projects', async (c) => c.json({ items: await listProjects(deps) }));

  app.post('/api/projects/extract', async (c) => {
    if (!c.req.header('content-type')?.toLowerCase().startsWith('application/json')) {
      return fail(c, 400, 'expected a JSON body', 'send Content-Type: application/json');
    }
    const body = parse(c, ExtractBody, await c.req.json().catch(() => undefined));
    if (body instanceof Response) return body;
    if (!deps.extractNow) return fail(c, 501, 'this collector cannot extract on demand');
    // A run may take a minute: answer once it is under way, but still report a refusal
    // (nothing pending, shutting down), which comes back at once.
    const run = deps.extractNow(body.namespace).then(
      () => 'finished' as const,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    const outcome = await Promise.race([
      run,
      new Promise<'running'>((resolve) => setTimeout(resolve, START_WAIT_MS, 'running')),
    ]);
    if (outcome instanceof Error) return fail(c, 409, 'extraction did not start', outcome.message);
    return c.json(
      { started: true, finished: outcome === 'finished', namespace: body.namespace },
      202,
    );
  });

  app.get('/api/health', async (c) => {
    const at = now();
    const { db_bytes, events, memories, projects, latency } = await models.health(at);
    const semantic = await deps.semantic?.();
    const backlog = (await deps.searchBacklog?.()) ?? 0;
    return c.json({
      version: deps.version,
      uptime_s: Math.max(0, Math.round((at - deps.startedAt) / 1000)),
      started_at: new Date(deps.startedAt).toISOString(),
      db_bytes,
      extractor: deps.extractor(),
      events,
      memories,
      projects,
      latency,
      ...(backlog > 0 ? { search_backlog: backlog } : {}),
      ...(semantic
        ? {
            semantic: {
              state: semantic.state,
              ...(semantic.reason ? { reason: semantic.reason } : {}),
              ...(semantic.model ? { model: semantic.model } : {}),
              ...(semantic.runtime ? { runtime: semantic.runtime } : {}),
              ...(semantic.precision ? { precision: semantic.precision } : {}),
              prompts: {
                used: semantic.prompts.used,
                timed_out: semantic.prompts.timedOut,
                failed: semantic.prompts.failed,
              },
            },
          }
        : {}),
    });
  });

  // `/ui/` itself, under a strict router (the `/` route above matched `/ui` only).
  app.get('*', async (c) =>
    c.req.path.endsWith('/') && !c.req.path.includes('/api/')
      ? serve(c, 'index.html')
      : fail(c, 404, 'not found', c.req.path),
  );

  return app;
}
