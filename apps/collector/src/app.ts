import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { authorLabel, createRetriever } from '@kiro-learn/retrieval';
import { createScrubber, type Event, type MemoryRecord } from '@kiro-learn/schema';
import type { ExtractionLogInput, StorageBackend, StorageReads } from '@kiro-learn/storage';
import {
  createRateLimiter,
  createTeamSwitch,
  type OutboxTiming,
  sharingRoutes,
  teamRoutes,
} from '@kiro-learn/team';
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { type Activity, ActivityHub } from './activity.js';
import { createCaptureGate } from './capture.js';
import type { CollectorSettings } from './config/settings.js';
import type { AppContext, PipelineStatus, SearchFn } from './context.js';
import { CollectorError, httpError } from './errors.js';
import { readJson } from './http/body.js';
import { answerClientError, answerRequestError } from './http/client-error.js';
import { outgoingOf, requestHeader } from './http/node.js';
import { errorResponse } from './http/respond.js';
import { security } from './http/security.js';
import { type Logger, silentLogger } from './log/logger.js';
import { type CollectorMetrics, createMetrics } from './metrics.js';
import { createOthersFeed } from './others.js';
import { createRecentHooks } from './recent-hooks.js';
import type { RetrieveFn } from './retrieve.js';
import { dataRoutes } from './routes/data.js';
import { eventRoutes } from './routes/events.js';
import { hookRoutes } from './routes/hooks.js';
import { memoryRoutes } from './routes/memories.js';
import { metaRoutes } from './routes/meta.js';
import { streamRoutes } from './routes/stream.js';
import { searchBacklog } from './search-backlog.js';
import type { Semantic } from './semantic.js';
import { FANOUT_DEFAULTS, type FanoutOptions, SseFanout } from './sse.js';
import type { StorageHealth } from './storage.js';
import { warmUp } from './warm.js';

/** What a collector is made of. The caller opens storage; the collector closes it. */
export interface CollectorOptions {
  /** Where events, records, the pending buffer and the logs live. */
  storage: StorageBackend;
  /**
   * Where lists, totals and logs are read (openSqliteReader: a worker thread), so a slow
   * read never holds up ingest; `storage` when omitted. Closed by the collector.
   */
  reads?: StorageReads & { close?(): Promise<void> };
  /** Validated settings (loadSettings). */
  settings: CollectorSettings;
  /** Structured logger; silent when omitted. */
  logger?: Logger;
  /** Inline retrieval for `?retrieve=true` prompts; @kiro-learn/retrieval's when omitted. */
  retrieve?: RetrieveFn;
  /** Session-start context for `?retrieve=session_start`; the retrieval package's when omitted. */
  sessionStart?: RetrieveFn;
  /**
   * The embedding model and its background work (createSemantic); retrieval and search are
   * hybrid while its model is loaded, lexical otherwise. Closed by the collector.
   */
  semantic?: Semantic;
  /** Search for GET /v1/memories/search; ranked like retrieval when omitted. */
  search?: SearchFn;
  /** A sub-app mounted at `/ui` (the viewer). */
  ui?: Hono;
  /** Extraction state per project, for /v1/status and /metrics; none when omitted. */
  status?: () => PipelineStatus;
  /** Finishes extraction work; awaited on shutdown before the database closes. */
  drain?: () => Promise<void>;
  /** The storage's backend and health, for /v1/status; SQLite at no location when omitted. */
  storageHealth?: () => Promise<StorageHealth>;
  /** The search index's backlog, for /v1/status and /metrics; searchBacklog(storage) when omitted. */
  searchBacklog?: () => Promise<number>;
  /** Version reported by /healthz. */
  version?: string;
  /**
   * The whole shutdown's time limit, in ms (10 s): in-flight requests, then extraction,
   * then closing the database. Work still running at the limit is cut (a batch being
   * extracted stays pending; nothing acknowledged is lost).
   */
  shutdownGraceMs?: number;
  /** Called when shutdown has to cut extraction short (the daemon aborts its agents). */
  abortExtraction?: () => void;
  /** Limits of /v1/stream (FANOUT_DEFAULTS). */
  streams?: Partial<Omit<FanoutOptions, 'onDrop'>>;
  /** Clock in epoch milliseconds (pauses, retention, backups); Date.now when omitted. */
  now?: () => number;
  /** Embeds imported records for the current model, when there is an embedder. */
  embedRecords?: (records: readonly MemoryRecord[]) => Promise<void>;
  /** Team memory pacing (tests and benchmarks); team memory runs when settings join a team. */
  team?: { timing?: Partial<OutboxTiming> };
  /**
   * The team settings as they are now (settings.json and KIRO_LEARN_TEAM_*), read again on
   * POST /v1/sharing/reload; the settings given at start when omitted.
   */
  teamSettings?: () => CollectorSettings['team'];
}

export interface ListenInfo {
  host: string;
  port: number;
  /** `http://host:port`. */
  url: string;
}

export interface Collector {
  /** The hono app (for `app.request()` or another server). */
  readonly app: Hono;
  readonly metrics: CollectorMetrics;
  /** Binds settings.host:settings.port; rejects with code `port_in_use` when taken. */
  listen(): Promise<ListenInfo>;
  /**
   * Graceful shutdown: stop accepting, finish in-flight requests, end streams, drain
   * extraction, close the database. Safe to call twice.
   */
  close(): Promise<void>;
  /** Follows everything the stream shows. Returns the unsubscribe function. */
  onActivity(listener: (activity: Activity) => void): () => void;
  /** Called after each newly stored event (the buffer's watcher). Returns unsubscribe. */
  onEventStored(listener: (event: Event) => void): () => void;
  /** Reports a finished extraction batch to /metrics and the stream. */
  reportExtraction(entry: ExtractionLogInput): void;
  /**
   * Runs the first hook's work once without storing anything (see warmUp), so the first
   * prompt after a start pays no compilation inside its retrieval budget.
   */
  warmUp(): Promise<void>;
}

/** Builds the collector: the HTTP API of DESIGN.md §3 and its lifecycle. */
export function createCollector(options: CollectorOptions): Collector {
  const { storage, settings } = options;
  const logger = options.logger ?? silentLogger;
  const metrics = createMetrics();
  const hub = new ActivityHub((error) => logger.error('activity listener failed', { error }));
  const fanout = new SseFanout({
    ...options.streams,
    onDrop: () => {
      metrics.streamsDropped.inc();
      logger.warn('stream client disconnected: it stopped reading', {
        limit_bytes: options.streams?.maxQueuedBytes ?? FANOUT_DEFAULTS.maxQueuedBytes,
      });
    },
  });
  hub.on((activity) => fanout.publish(activity));
  // Other collectors' events (a shared PostgreSQL), read only while the stream has readers.
  const others = createOthersFeed(
    storage,
    (event) => fanout.publish({ type: 'event', event }),
    logger,
  );
  const closers = new Set<() => void>();
  let port = settings.port;
  let server: Server | undefined;
  let inFlight = 0;
  // Requests that may store something (not GET or HEAD): a shutdown waits for these only.
  let writesInFlight = 0;
  let lastAnswered = 0;
  let closing: Promise<void> | undefined;
  // Busy while answering a request and for a moment after (hooks come in bursts): the
  // embedding model then keeps to one thread.
  options.semantic?.setBusy(() => inFlight > 0 || performance.now() - lastAnswered < BUSY_MS);

  const scrubber = createScrubber({ extraPatterns: settings.privacy.extraPatterns });
  // Team memory (settings join a team): shared projects' records are pushed from the
  // outbox, and retrieval asks the team server too.
  // `team join` / `team leave` reload it in place (POST /v1/sharing/reload): no restart.
  const team = createTeamSwitch({
    storage,
    settings: settings.team,
    home: settings.home,
    scrubber,
    logger,
    activity: hub,
    ...(options.team?.timing ? { timing: options.team.timing } : {}),
    ...(options.teamSettings ? { read: options.teamSettings } : {}),
  });
  const retriever = createRetriever({
    storage,
    budgetMs: settings.retrieval.budgetMs,
    maxRecords: settings.retrieval.records,
    remote: team.remote,
    ...(options.semantic ? { semantic: { embedder: options.semantic.embedder } } : {}),
    onError: (error) => logger.warn('retrieval error', { error }),
  });
  const semantic = options.semantic;
  const reads = options.reads ?? storage;
  const ctx: AppContext = {
    watchOthers: () => others.acquire(),
    storage,
    reads,
    settings,
    scrubber,
    recentHooks: createRecentHooks(),
    hub,
    fanout,
    metrics,
    retrieve: options.retrieve ?? ((request) => retriever.retrieve(request)),
    sessionStart:
      options.sessionStart ??
      (({ namespace, sessionId, eventId, reason }) =>
        retriever.sessionStart({
          namespace,
          ...(sessionId ? { sessionId } : {}),
          ...(eventId ? { eventId } : {}),
          ...(reason ? { reason } : {}),
        })),
    windowReset: (request) => retriever.windowReset(request),
    search:
      options.search ??
      (async (q) => {
        const { namespace, query, limit } = q;
        // In a shared project the team server is asked too, as for a prompt (not for a
        // search narrowed to a type or a file, which the team server cannot narrow).
        const hits = await retriever.search({
          ...(namespace ? { namespace } : {}),
          query,
          limit,
          ...(q.type ? { type: q.type } : {}),
          ...(q.file ? { file: q.file } : {}),
          remote: !q.type && !q.file,
        });
        const self = team.remote.self?.();
        return hits.map((hit) => {
          if (!hit.remote) return hit.record;
          // A teammate's record reads as one of this project's, with its author.
          const author = authorLabel(hit, self);
          return {
            ...hit.record,
            ...(namespace ? { namespace } : {}),
            ...(author ? { author } : {}),
          };
        });
      }),
    captureGate: createCaptureGate(settings.home, settings.capture, options.now),
    now: options.now ?? Date.now,
    logger,
    embedRecords:
      options.embedRecords ?? ((records) => semantic?.embedRecords(records) ?? Promise.resolve()),
    semanticStatus: async () =>
      semantic
        ? semantic.status()
        : {
            state: 'off',
            reason: 'this collector was built without an embedding model',
            prompts: { used: 0, timedOut: 0, failed: 0 },
          },
    notePrompt: (outcome) => semantic?.notePrompt(outcome),
    // The query text exactly as the retriever embeds it (retrieve() cuts and trims it so).
    prefetchPrompt: (prompt) =>
      semantic?.prefetch?.(prompt.slice(0, retriever.options.maxQueryChars).trim()),
    observeProject: (event) => team.current()?.tracker.observe(event),
    version: options.version ?? '0.0.0',
    startedAt: Date.now(),
    status: options.status ?? (() => ({ projects: [] })),
    storageHealth:
      options.storageHealth ?? (async () => ({ backend: 'sqlite', location: '', ok: true })),
    searchBacklog: options.searchBacklog ?? searchBacklog(storage),
    onClose(fn) {
      closers.add(fn);
      return () => closers.delete(fn);
    },
  };

  const app = new Hono();
  app.use(async (c, next) => {
    const started = performance.now();
    const given = requestHeader(c, 'x-request-id');
    const id = given && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    // Straight onto Node's response when there is one: setting it on `c.res` afterwards
    // turns hono's lightweight response into a web Headers object on every request.
    const outgoing = outgoingOf(c);
    outgoing?.setHeader('X-Request-Id', id);
    // Marks every answer as the collector's: a hook treats a refusal from another program
    // on the port as the collector being away, and keeps the event.
    outgoing?.setHeader('X-Kiro-Learn', ctx.version);
    if (closing) {
      // A client with a kept-alive connection keeps sending after the server stopped
      // accepting: answered, it would hold the shutdown's wait for in-flight requests to
      // its limit. Refused, nothing is stored or acknowledged (a hook keeps the event in
      // its spool), and the connection ends.
      return errorResponse(
        httpError(503, 'the collector is shutting down', undefined, { Connection: 'close' }),
      );
    }
    const writes = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    inFlight++;
    if (writes) writesInFlight++;
    try {
      await next();
    } finally {
      inFlight--;
      if (writes) writesInFlight--;
      lastAnswered = performance.now();
    }
    if (!outgoing) {
      c.res.headers.set('X-Request-Id', id);
      c.res.headers.set('X-Kiro-Learn', ctx.version);
    }
    const status = c.res.status;
    metrics.requests.inc({ method: c.req.method, status: String(status) });
    if (status < 400 && !logger.enabled('debug')) return;
    const line = {
      request_id: id,
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 100) / 100,
    };
    // A read cut short by a shutdown (its reader closed) is expected, not a failure.
    if (status >= 500 && closing) logger.debug('request cut short by the shutdown', line);
    else if (status >= 500) logger.error('request failed', { ...line, error: c.error });
    else if (status >= 400) logger.warn('request refused', line);
    else logger.debug('request', line);
  });
  app.use(
    security({
      host: settings.host,
      port: () => port,
      ...(settings.token ? { token: settings.token } : {}),
      findMember: (tokenHash) => storage.findMember(tokenHash),
      limits: createRateLimiter(settings.rateLimit),
      onLimited: (limit) => metrics.rateLimited.inc({ limit }),
    }),
  );
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (_c, methods) =>
        errorResponse(
          httpError(405, 'method not allowed', { allow: methods }, { Allow: methods.join(', ') }),
        ),
    }),
  );
  app.route('/', metaRoutes(ctx));
  app.route('/v1/events', eventRoutes(ctx));
  // The hook launcher's fast path: an agent's raw payload, mapped here by the shims' modules.
  app.route('/v1/hooks', hookRoutes(ctx));
  app.route('/v1/memories', memoryRoutes(ctx));
  app.route('/v1/stream', streamRoutes(ctx));
  // Team memory (members' tokens reach these only): ranked like retrieval, one namespace.
  app.route(
    '/v1/team',
    teamRoutes({
      storage,
      reads,
      scrubber,
      search: (q) => retriever.search(q),
      serverToken: settings.token !== undefined,
      version: ctx.version,
      embedRecords: ctx.embedRecords,
      onWrite: (op, outcome) => metrics.teamWrites.inc({ op, outcome }),
      readJson,
    }),
  );
  app.route('/v1', dataRoutes(ctx));
  app.route('/v1/sharing', sharingRoutes(team, readJson));
  if (options.ui) {
    app.route('/ui', options.ui);
    // A user who types the bare address gets the viewer, not a JSON 404.
    app.get('/', (c) => c.redirect('/ui/', 302));
  }
  app.notFound(() => errorResponse(httpError(404, 'no such route')));
  app.onError((error) => errorResponse(error));

  const listen = (): Promise<ListenInfo> => bind();

  const bind = (): Promise<ListenInfo> =>
    new Promise((resolve, reject) => {
      // Node and the adapter answer a request without a usable Host with an empty 400;
      // answerRequestError gives it the JSON error shape like every other refusal.
      const s = createServer(
        { requireHostHeader: false },
        getRequestListener(app.fetch, { errorHandler: answerRequestError }),
      );
      s.on('clientError', answerClientError);
      s.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'EADDRINUSE'
            ? new CollectorError(
                'port_in_use',
                `port ${settings.port} on ${settings.host} is in use by another program: stop it, or choose another port with KIRO_LEARN_PORT or "port" in ${settings.home}/settings.json`,
                { cause: error },
              )
            : error,
        );
      });
      s.listen(settings.port, settings.host, () => {
        server = s;
        port = (s.address() as AddressInfo).port;
        const urlHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
        resolve({ host: settings.host, port, url: `http://${urlHost}:${port}` });
      });
    });

  const shutdown = async () => {
    const grace = options.shutdownGraceMs ?? 10_000;
    const deadline = Date.now() + grace;
    // Closing the database is the last step and must always happen: keep time for it.
    const reserve = Math.min(2000, grace / 4);
    const left = () => Math.max(0, deadline - reserve - Date.now());
    if (server) {
      const s = server;
      const stopped = new Promise<void>((resolve) => s.close(() => resolve()));
      for (const close of closers) close();
      fanout.closeAll();
      s.closeIdleConnections();
      // Requests that store get half the time to be answered (what they store is then
      // acknowledged, so on disk); then connections are cut. Reads are not waited for: on
      // a loaded machine a viewer's or a status read can take seconds, and its answer
      // matters to nobody once the collector stops.
      const requestsDeadline = Date.now() + left() / 2;
      while (writesInFlight > 0 && Date.now() < requestsDeadline) await sleep(10);
      s.closeIdleConnections();
      s.closeAllConnections();
      await stopped;
    }
    const draining = (async () => {
      await others.close();
      await team.close();
      await options.drain?.();
      await semantic?.close();
      await retriever.flush();
    })().then(
      () => true,
      (error: unknown) => {
        logger.error('drain failed', { error });
        return true;
      },
    );
    // Running extractions may finish until shortly before the limit; then their agents are
    // stopped (SIGTERM, SIGKILL after their 2 s grace) and the batches stay pending.
    if (!(await within(draining, left() - AGENT_STOP_MS))) {
      logger.warn('shutdown: stopping extractions still running; their batches stay pending', {
        grace_ms: grace,
      });
      options.abortExtraction?.();
      await within(draining, left());
    }
    if (options.reads && options.reads !== storage) await options.reads.close?.();
    await storage.close();
  };

  return {
    app,
    metrics,
    listen,
    close: () => {
      closing ??= shutdown();
      return closing;
    },
    onActivity: (listener) => hub.on(listener),
    onEventStored: (listener) =>
      hub.on((activity) => {
        if (activity.type === 'event') listener(activity.event);
      }),
    warmUp: () =>
      warmUp({ storage, scrubber, home: settings.home, ...(semantic ? { semantic } : {}) }),
    reportExtraction(entry) {
      metrics.extractions.inc({ status: entry.status });
      metrics.extractedRecords.inc({}, entry.records);
      hub.emit({ type: 'extraction', extraction: entry });
    },
  };
}

/** Time an aborted extraction agent gets to go (its SIGTERM → SIGKILL grace, and some). */
const AGENT_STOP_MS = 2500;
/** How long after its last answer the collector still counts as busy (see Semantic.setBusy). */
const BUSY_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the promise's value, or false when it has not settled within `ms`. */
async function within(promise: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
