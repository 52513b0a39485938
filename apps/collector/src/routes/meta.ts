import { NamespaceSchema } from '@kiro-learn/schema';
import { Hono } from 'hono';
import { z } from 'zod';
import { isLoopbackHost } from '../config/settings.js';
import type { AppContext } from '../context.js';
import { pauses } from '../data/pause.js';
import { parseWith } from '../http/respond.js';
import { renderCounter, renderGauge } from '../metrics.js';

const LogQuery = z.object({
  namespace: NamespaceSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  after_id: z.coerce.number().int().min(0).optional(),
  session_id: z.string().min(1).max(128).optional(),
});
const StatsQuery = z.object({ namespace: NamespaceSchema.optional() });

const BREAKER_LEVEL: Record<string, number> = { closed: 0, 'half-open': 1, open: 2 };

/** Health, totals, metrics and the retrieval and extraction logs. */
export function metaRoutes(ctx: AppContext): Hono {
  const app = new Hono();

  // `home`: which data dir this collector serves, so a CLI of another data dir never takes
  // it for its own. Said only on loopback: a server's paths are nobody else's business.
  const home = isLoopbackHost(ctx.settings.host) ? { home: ctx.settings.home } : {};
  app.get('/healthz', (c) =>
    c.json({ status: 'ok' as const, version: ctx.version, pid: process.pid, ...home }),
  );

  // What `kiro-learn status` and the viewer show: uptime and each project's extraction state.
  app.get('/v1/status', async (c) =>
    c.json({
      status: 'ok' as const,
      version: ctx.version,
      pid: process.pid,
      uptime_s: Math.round((Date.now() - ctx.startedAt) / 1000),
      paused: pauses(ctx.settings.home, ctx.now()),
      storage: await ctx.storageHealth(),
      search_backlog: await ctx.searchBacklog(),
      ...ctx.status(),
      semantic: await ctx.semanticStatus(),
    }),
  );

  app.get('/v1/stats', async (c) => {
    const { namespace } = parseWith(StatsQuery, c.req.query(), 'query');
    const s = await ctx.reads.stats(namespace);
    return c.json({
      events: { total: s.events.total, by_kind: s.events.byKind },
      memories: { total: s.memories.total, by_type: s.memories.byType },
      projects: s.projects.map((p) => ({
        namespace: p.namespace,
        events: p.events,
        memories: p.memories,
        ...(p.lastEventAt ? { last_event_at: p.lastEventAt } : {}),
      })),
    });
  });

  app.get('/v1/retrievals', async (c) => {
    const q = parseWith(LogQuery, c.req.query(), 'query');
    const items = await ctx.reads.listRetrievals({
      limit: q.limit,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.after_id !== undefined ? { afterId: q.after_id } : {}),
      ...(q.session_id ? { sessionId: q.session_id } : {}),
    });
    return c.json({ items });
  });

  app.get('/v1/extractions', async (c) => {
    const q = parseWith(LogQuery, c.req.query(), 'query');
    const items = await ctx.reads.listExtractions({
      limit: q.limit,
      ...(q.namespace ? { namespace: q.namespace } : {}),
      ...(q.after_id !== undefined ? { afterId: q.after_id } : {}),
    });
    return c.json({ items });
  });

  app.get('/metrics', async (c) => {
    const pending = await ctx.reads.pendingSummary();
    const { prompts } = await ctx.semanticStatus();
    const { projects } = ctx.status();
    const m = ctx.metrics;
    const text = [
      m.requests.render(),
      m.ingested.render(),
      m.ingestSeconds.render(),
      m.retrievalSeconds.render(),
      renderCounter(
        'kiro_learn_retrieval_semantic_total',
        'Prompt retrievals with the embedding model loaded, by how the semantic share went: used, or timed_out / failed (answered lexical only).',
        [
          [{ outcome: 'used' }, prompts.used],
          [{ outcome: 'timed_out' }, prompts.timedOut],
          [{ outcome: 'failed' }, prompts.failed],
        ],
      ),
      m.extractions.render(),
      m.extractedRecords.render(),
      m.streamsDropped.render(),
      m.teamWrites.render(),
      m.rateLimited.render(),
      renderGauge(
        'kiro_learn_buffer_pending_events',
        'Events waiting for extraction, per project.',
        pending.map((p) => [{ namespace: p.namespace }, p.count]),
      ),
      renderGauge(
        'kiro_learn_buffer_pending_bytes',
        'Bytes waiting for extraction, per project.',
        pending.map((p) => [{ namespace: p.namespace }, p.bytes]),
      ),
      renderGauge(
        'kiro_learn_breaker_state',
        'Extraction circuit breaker per project: 0 closed, 1 half-open, 2 open.',
        projects.map((p) => [{ namespace: p.namespace }, BREAKER_LEVEL[p.breaker.state] ?? 0]),
      ),
      renderGauge(
        'kiro_learn_breaker_consecutive_failures',
        'Failed extractions in a row, per project.',
        projects.map((p) => [{ namespace: p.namespace }, p.breaker.consecutiveFailures]),
      ),
      renderGauge(
        'kiro_learn_buffer_unbuffered_events',
        'Events stored but not buffered because the project was past its pending ceiling.',
        projects.map((p) => [{ namespace: p.namespace }, p.unbufferedEvents]),
      ),
      renderGauge(
        'kiro_learn_compaction_summaries',
        'Compaction summary records in the chain, per project.',
        projects.map((p) => [{ namespace: p.namespace }, p.compaction?.head?.pass ?? 0]),
      ),
      renderGauge(
        'kiro_learn_compaction_exhausted',
        'The last over-budget batch had nothing to reclaim (1), per project.',
        projects.map((p) => [{ namespace: p.namespace }, p.compaction?.exhausted ? 1 : 0]),
      ),
      renderGauge(
        'kiro_learn_search_index_backlog_records',
        'Records the search index has yet to take in (after an upgrade or a bulk import); searches are slower until 0. Counted at most every 5 s.',
        [[{}, await ctx.searchBacklog()]],
      ),
      renderGauge('kiro_learn_database_bytes', 'Database size on disk.', [
        [{}, await ctx.reads.sizeBytes()],
      ]),
      renderGauge('kiro_learn_uptime_seconds', 'Seconds since the collector started.', [
        [{}, Math.round((Date.now() - ctx.startedAt) / 1000)],
      ]),
    ].join('\n\n');
    return c.body(`${text}\n`, 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  });

  return app;
}
