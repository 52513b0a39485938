import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { NamespaceSchema, RecordIdSchema, UlidSchema } from '@kiro-learn/schema';
import { type ForgetCounts, type ForgetScope, StorageError } from '@kiro-learn/storage';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { forgetInCopies, manualBackupPath } from '../data/backups.js';
import { exportLines } from '../data/export.js';
import { importLines, splitLines } from '../data/import.js';
import { parseDuration, pause, pauses, resume } from '../data/pause.js';
import { removeQuestionOnly } from '../data/question-only.js';
import { applyRetention } from '../data/retention.js';
import { forgetSavedRecords } from '../data/saved-records.js';
import { forgetLogLines, forgetSpoolLines } from '../data/traces.js';
import { CollectorError, httpError } from '../errors.js';
import { readJson } from '../http/body.js';
import { parseWith } from '../http/respond.js';

const day = z.iso.date().or(z.iso.datetime({ offset: true }));
const ForgetBody = z
  .object({
    record: RecordIdSchema.optional(),
    event: UlidSchema.optional(),
    session: z.string().min(1).max(128).optional(),
    namespace: NamespaceSchema.optional(),
    before: day.optional(),
    all: z.literal(true).optional(),
    /**
     * The project's directory: the forget then covers, beside `namespace`, every namespace
     * whose events name this directory (its earlier project ids).
     */
    directory: z.string().min(1).max(4096).optional(),
    /** PostgreSQL: rewrite the touched tables afterwards (VACUUM FULL). */
    compact: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  })
  .strict()
  .refine(
    (b) =>
      [b.record, b.event, b.session, b.before, b.all].filter((v) => v !== undefined).length +
        (b.namespace !== undefined && b.session === undefined && b.before === undefined ? 1 : 0) ===
      1,
    'say exactly one of record, event, session, namespace, before, all (namespace may narrow session or before)',
  )
  .refine(
    (b) => b.directory === undefined || b.namespace !== undefined,
    'directory goes with namespace (the project at that directory)',
  );
const ExportQuery = z.object({ namespace: NamespaceSchema.optional() });
const BackupBody = z
  .object({
    path: z.string().min(1).max(4096).optional(),
    /** Replace a file already at `path` (otherwise 409). */
    force: z.boolean().optional(),
  })
  .strict();
const GcBody = z.object({ dry_run: z.boolean().optional() }).strict();
const PauseBody = z
  .object({
    namespace: NamespaceSchema.optional(),
    root: z.string().max(4096).optional(),
    for: z.string().max(32).optional(),
  })
  .strict();
const ResumeBody = z.object({ namespace: NamespaceSchema.optional() }).strict();

/** The body of a POST that may be empty (`{}` then). */
async function optionalJson(c: Context): Promise<unknown> {
  try {
    return await readJson(c, 64 * 1024);
  } catch (error) {
    if (error instanceof CollectorError && /body is empty/.test(error.message)) return {};
    throw error;
  }
}

const zeroCounts = (): ForgetCounts => ({ events: 0, records: 0, pending: 0, logs: 0 });
function addCounts(into: ForgetCounts, counts: ForgetCounts): void {
  into.events += counts.events;
  into.records += counts.records;
  into.pending += counts.pending;
  into.logs += counts.logs;
}

/** Which scope a forget body names. */
function scopeOf(body: z.infer<typeof ForgetBody>): ForgetScope {
  if (body.record) return { record: body.record };
  if (body.event) return { event: body.event };
  if (body.session) {
    return { session: body.session, ...(body.namespace ? { namespace: body.namespace } : {}) };
  }
  if (body.before) {
    const before = new Date(body.before).toISOString();
    return { before, ...(body.namespace ? { namespace: body.namespace } : {}) };
  }
  if (body.all) return { all: true };
  return { namespace: body.namespace! };
}

/** The directory as given and as the file system resolves it (symbolic links followed). */
function directoryNames(directory: string): string[] {
  const given = resolve(directory);
  let real = given;
  try {
    real = realpathSync(given);
  } catch {
    // A project directory that is gone: its events still name it.
  }
  return [...new Set([given, real])];
}

/**
 * A record saved through MCP is traced to a note event that holds the same text, written
 * for that save alone: forgetting the record forgets that event too (an event scope also
 * takes any other record made from it). Records made from hooks' events keep them.
 */
async function savedWith(ctx: AppContext, recordId: string): Promise<ForgetScope[]> {
  const record = await ctx.storage.getRecord(recordId);
  if (!record) return [];
  const events = await ctx.storage.getEvents(record.source_event_ids);
  return events
    .filter((event) => event.kind === 'note' && event.source.surface === 'mcp')
    .map((event) => ({ event: event.event_id }));
}

/** Spooled events a scope covers (the spool holds events the collector has not seen yet). */
function spoolMatch(scope: ForgetScope) {
  return (event: {
    event_id?: string;
    namespace?: string;
    session_id?: string;
    valid_time?: string;
  }) => {
    if ('all' in scope) return true;
    if ('record' in scope) return false;
    if ('event' in scope) return event.event_id === scope.event;
    const ns =
      !('namespace' in scope) ||
      scope.namespace === undefined ||
      event.namespace === scope.namespace;
    if ('session' in scope) return ns && event.session_id === scope.session;
    if ('before' in scope)
      return ns && Date.parse(event.valid_time ?? '') < Date.parse(scope.before);
    return ns;
  };
}

/**
 * Your data: forget, export, import, backup, retention (`gc`) and pause. Each is also a
 * `kiro-learn` command, which calls these routes (or, with the collector stopped, the same
 * routes in its own process).
 */
export function dataRoutes(ctx: AppContext): Hono {
  const app = new Hono();

  app.post('/forget', async (c) => {
    const body = parseWith(ForgetBody, await readJson(c, 64 * 1024), 'forget request');
    const scope = scopeOf(body);
    // A project forget covers its earlier ids too: every namespace whose events name its
    // directory (a repository that gained a remote changed its project id).
    const directories = body.directory === undefined ? [] : directoryNames(body.directory);
    const namespaces =
      body.namespace === undefined
        ? undefined
        : [...new Set([body.namespace, ...(await ctx.storage.projectNamespaces(directories))])];
    const scopes: ForgetScope[] = namespaces
      ? namespaces.map((namespace) => ({ ...scope, namespace }) as ForgetScope)
      : [scope, ...('record' in scope ? await savedWith(ctx, scope.record) : [])];
    const copies = { scopes, ...(directories.length > 0 ? { directories } : {}) };
    const heads = (ids: readonly string[]) => ctx.storage.getEventHeads(ids);
    const listed = namespaces ? { namespaces } : {};
    if (body.dry_run) {
      const counts = zeroCounts();
      for (const one of scopes) addCounts(counts, await ctx.storage.countForget(one));
      const backups = [
        ...(await forgetInCopies(ctx.settings.home, { ...copies, dryRun: true })),
        ...(await forgetSavedRecords(ctx.settings.home, scopes, heads, { dryRun: true })),
      ];
      return c.json({ dry_run: true, counts, ...listed, backups });
    }
    // The records gc saved to files: first, while the events they were made from (which
    // name their session) are still there.
    const saved = await forgetSavedRecords(ctx.settings.home, scopes, heads);
    const counts = zeroCounts();
    let compacted = false;
    for (const [i, one] of scopes.entries()) {
      // Compacting once, after the last scope, rewrites every table they touched.
      const compact = body.compact === true && i === scopes.length - 1;
      const done = await ctx.storage.forget(one, compact ? { compact } : {});
      addCounts(counts, done);
      if (compact) compacted = done.compacted !== false;
    }
    const matches = scopes.map(spoolMatch);
    const spool = forgetSpoolLines(ctx.settings.home, (event) => matches.some((m) => m(event)));
    // Log lines name projects, not what was said: they go with a whole project or everything.
    let logs = 0;
    for (const one of scopes) {
      if ('all' in one) logs += forgetLogLines(ctx.settings.home);
      else if ('namespace' in one && !('session' in one) && !('before' in one))
        logs += forgetLogLines(ctx.settings.home, one.namespace);
    }
    // The copies of the database kiro-learn made (daily backups and the like) too.
    const backups = [...(await forgetInCopies(ctx.settings.home, copies)), ...saved];
    ctx.logger.info('forgot', {
      ...counts,
      spool,
      backups_rewritten: backups.filter((b) => b.action === 'rewritten').length,
      backups_deleted: backups.filter((b) => b.action === 'deleted').length,
    });
    return c.json({
      dry_run: false,
      counts: { ...counts, spool, log_lines: logs },
      ...listed,
      backups,
      // false after a compact too when a transaction older than the delete outlasted the
      // wait: the rewrite may have kept the text, and the user must hear it.
      ...(ctx.settings.storage.url === undefined
        ? {}
        : { compacted, ...(body.compact === true && !compacted ? { compact_held: true } : {}) }),
    });
  });

  app.get('/export', (c) => {
    const { namespace } = parseWith(ExportQuery, c.req.query(), 'query');
    // Page by page from the reader: an export of a large database never stalls ingest.
    const lines = exportLines(ctx.reads, {
      ...(namespace ? { namespace } : {}),
      toolVersion: ctx.version,
      now: ctx.now,
    });
    const encoder = new TextEncoder();
    // Pull-driven: the next page is read only when the client has taken the last one.
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return c.body(stream, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
  });

  app.post('/import', async (c) => {
    const body = c.req.raw.body;
    if (!body) throw httpError(400, 'the request has no body: send an export file');
    const report = await importLines(ctx, splitLines(body));
    ctx.logger.info('imported', {
      events: report.added.events,
      records: report.added.records,
      rejected: report.rejected_total,
    });
    return c.json(report);
  });

  app.post('/backup', async (c) => {
    const body = parseWith(BackupBody, await optionalJson(c), 'backup request');
    const path = body.path ? resolve(body.path) : manualBackupPath(ctx.settings.home, ctx.now());
    try {
      const { bytes } = await ctx.storage.backup(path, { overwrite: body.force === true });
      return c.json({ path, bytes });
    } catch (error) {
      if (error instanceof StorageError && error.code === 'conflict') {
        throw httpError(409, 'the backup was not written', [
          `${error.message}: name another file, or send "force": true to replace it`,
        ]);
      }
      throw error;
    }
  });

  app.post('/gc', async (c) => {
    const body = parseWith(GcBody, await optionalJson(c), 'gc request');
    const dryRun = body.dry_run ?? false;
    const steps = await applyRetention(ctx.storage, ctx.settings, { now: ctx.now(), dryRun });
    // Records earlier versions stored for turns that learned nothing (kept in a file first).
    const questionOnly = await removeQuestionOnly(ctx.storage, {
      home: ctx.settings.home,
      now: ctx.now(),
      dryRun,
      toolVersion: ctx.version,
    });
    return c.json({ dry_run: dryRun, steps, question_only: questionOnly });
  });

  app.get('/pause', (c) => c.json({ pauses: pauses(ctx.settings.home, ctx.now()) }));

  app.post('/pause', async (c) => {
    const body = parseWith(PauseBody, await optionalJson(c), 'pause request');
    const forMs = body.for === undefined ? undefined : parseDuration(body.for);
    if (body.for !== undefined && forMs === undefined) {
      throw httpError(400, 'invalid pause request', [
        `for: "${body.for}" is not a duration like 30m, 1h or 2d`,
      ]);
    }
    const view = pause(ctx.settings.home, {
      now: ctx.now(),
      ...(body.namespace ? { namespace: body.namespace } : {}),
      ...(body.root ? { root: body.root } : {}),
      ...(forMs !== undefined ? { forMs } : {}),
    });
    return c.json({ paused: view });
  });

  app.post('/resume', async (c) => {
    const body = parseWith(ResumeBody, await optionalJson(c), 'resume request');
    const resumed = resume(ctx.settings.home, {
      now: ctx.now(),
      ...(body.namespace ? { namespace: body.namespace } : {}),
    });
    return c.json({ resumed });
  });

  return app;
}
