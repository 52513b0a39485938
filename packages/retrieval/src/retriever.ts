import { LIMITS, type MemoryRecord, type ObservationType } from '@kiro-learn/schema';
import { newestFirst } from './chain.js';
import { formatContext } from './context.js';
import { contentStems, echoes, informationFree, onlyAsks, saysNothing } from './echo.js';
import { type HeadsReader, headsOnce, SESSION_EVENTS, sessionHeads } from './event-heads.js';
import { fuseHits, type SemanticHit } from './hybrid.js';
import { type ResolvedRetrieverOptions, type RetrieverOptions, resolveOptions } from './options.js';
import { overview } from './overview.js';
import { type RankedHit, rankHits } from './rank.js';
import {
  authorLabel,
  type MergedHit,
  mergeRemote,
  type RemoteHit,
  remoteWithin,
} from './remote.js';
import { withoutRestatements } from './restated.js';
import { currentEmbedder } from './semantic.js';
import {
  alreadyShown,
  remember,
  resetsWindow,
  SESSION_START_QUERY,
  type SessionView,
  SessionViews,
  type Shown,
  subjectOf,
} from './session.js';
import { analysePrompt } from './terms.js';
import { coveringRecords, RECENT_RECORDS, sessionFiles, withWorkingSet } from './working-set.js';

/** A prompt to find context for. */
export interface RetrieveRequest {
  /** Exact namespace to search (`/actor/<actor>/project/<id>/`). */
  namespace: string;
  /** The prompt text (see promptFromBody for an event body). */
  prompt: string;
  /**
   * With a session, what the agent still holds is left out: records made from this
   * session's own turns (until a compaction), and records injected earlier for the same
   * subject.
   */
  sessionId?: string;
  /** The prompt event, for the retrieval log. */
  eventId?: string;
  /**
   * Whether the context reaches the agent, when that is known only later: the collector
   * starts a prompt's retrieval while the prompt's event is stored, and answers only once
   * the store committed. Nothing is noted as shown (the session's view, the retrieval log,
   * kept team copies) until this resolves true; false or a rejection drops the notes, so
   * the session's later prompts are not kept from records its agent never saw. It must
   * settle: flush() waits for it.
   */
  delivered?: PromiseLike<boolean>;
}

/** A session that is starting, for surfaces whose prompt hook cannot inject context. */
export interface SessionStartRequest {
  namespace: string;
  sessionId?: string;
  eventId?: string;
  /**
   * Why the session (re)starts, as the agent says it (Claude Code: `startup`, `resume`,
   * `clear`, `compact`). After `compact` or `clear` the agent's context no longer holds
   * the session so far: its records and what was injected become eligible again.
   */
  reason?: string;
}

/**
 * The agent's context was compacted or cleared mid-session (its compaction hook): what came
 * before has left its window.
 */
export interface WindowResetRequest {
  namespace: string;
  sessionId: string;
  /** When (epoch ms; default now): records and showings from before it are eligible again. */
  at?: number;
}

/** What a retrieval produced. It is always returned, never thrown. */
export interface RetrievalOutcome {
  /** The context block for the agent; empty when nothing is worth injecting. */
  context: string;
  /** Ids of the records in the context, in order. */
  records: string[];
  /** Their ranking scores, aligned with `records`. */
  scores: number[];
  /** Wall time spent, in milliseconds. */
  latencyMs: number;
  /** The latency budget expired, so the result is empty. */
  timedOut: boolean;
  /** The token budget trimmed a record or left one out. */
  budgetCut: boolean;
  /** Why the result is empty, when an error made it so. */
  error?: string;
  /** Records in the context that came from the remote source (team memory), with their authors. */
  remote?: Array<{ recordId: string; author: string }>;
  /**
   * How the semantic share went, when a model is loaded: `used` (its hits were fused in),
   * `timed_out` (the prompt's embedding and vector scan overran the semantic budget: the
   * result is lexical only) or `failed` (they threw: lexical only). Absent without a model.
   */
  semantic?: SemanticOutcome;
}

/** How a retrieval's semantic share went (see RetrievalOutcome.semantic). */
export type SemanticOutcome = 'used' | 'timed_out' | 'failed';

/** A search ranked the way retrieval ranks, for search endpoints and the CLI. */
export interface SearchRequest {
  namespace?: string;
  query: string;
  /** Most results (default: the retriever's maxRecords). */
  limit?: number;
  /** Only records of this observation type. */
  type?: ObservationType;
  /** Only records whose files_touched has this path (exact, or as a suffix after `/`). */
  file?: string;
  /**
   * Also ask the remote source (team memory) for this namespace, within its sub-budget,
   * and merge its hits as prompt retrieval does (a record both sides found counts once).
   * Off by default: the team server's own search must never ask another server.
   */
  remote?: boolean;
}

export interface Retriever {
  /** The options in force, defaults filled in. */
  readonly options: ResolvedRetrieverOptions;
  /** Context for a prompt, within the latency and token budgets. Never throws. */
  retrieve(request: RetrieveRequest): Promise<RetrievalOutcome>;
  /**
   * Context for a new session: the latest session summaries, recent errors and decisions,
   * then other recent records, under the same budgets and no-repeat rule. Never throws.
   */
  sessionStart(request: SessionStartRequest): Promise<RetrievalOutcome>;
  /**
   * Notes that the session's agent no longer holds what came before `at` (a compaction):
   * its records and what it was shown become eligible again. Never throws.
   */
  windowReset(request: WindowResetRequest): Promise<void>;
  /**
   * Ranked records for a query, without the token budget, session filtering or logging;
   * with `remote`, team hits carry `remote` (see authorLabel). May throw storage errors.
   */
  search(request: SearchRequest): Promise<MergedHit[]>;
  /**
   * Resolves once every retrieval log write has finished (and every `delivered` still
   * awaited has settled). Results are returned before their log entry is written, so the
   * turn never waits on it: call this before closing the storage, and before reading the
   * log of a retrieval just made.
   */
  flush(): Promise<void>;
}

interface Selection {
  ranked: MergedHit[];
  /** The session's view, to note what was shown in; undefined without a session. */
  view: SessionView | undefined;
  /** What the records were shown for (the prompt's subject; `any` at session start). */
  subject: Shown['subject'];
  /** Titles of the records that superseded records in `ranked`, by the older record's id. */
  successors?: ReadonlyMap<string, string>;
  /** How the semantic share went (prompt retrievals with a model loaded). */
  semantic?: SemanticOutcome;
}

// A prompt that carries no subject of its own gets only a record this similar in meaning.
const STRONG_SIMILARITY = 0.7;
const TIMED_OUT = Symbol('timed out');

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A record no context ever holds: one that says nothing, only asks, or echoes the prompt. */
function unusable(record: MemoryRecord, promptStems: ReadonlySet<string>): boolean {
  return saysNothing(record) || onlyAsks(record) || echoes(record, promptStems);
}

/** Whether a record passes a search's type and file filters (as storage applies them). */
function matches(record: MemoryRecord, filter: Pick<SearchRequest, 'type' | 'file'>): boolean {
  if (filter.type && record.observation_type !== filter.type) return false;
  if (filter.file) {
    const file = filter.file.replace(/^\/+/, '');
    return record.files_touched.some((f) => f === filter.file || f.endsWith(`/${file}`));
  }
  return true;
}

// This file is long because a retrieval is one closure over its resolved options and the
// per-session state (what each session was shown, the semantic timeout): the steps that
// stand alone are modules of their own (rank, hybrid, chain, context, overview, remote,
// repeats); what stays here is the order they run in.

/** Creates a retriever over a storage backend. Throws RetrievalError only for unusable options. */
export function createRetriever(options: RetrieverOptions): Retriever {
  const opts = resolveOptions(options);
  const { storage } = opts;
  const sessions = new SessionViews(storage, opts.maxSessions);
  const budget = {
    tokens: opts.contextTokens,
    summaryTokens: opts.summaryTokens,
    records: opts.maxRecords,
    maxOverlap: opts.maxOverlap,
  };
  const logging = new Set<Promise<void>>();
  const remote = opts.remote;

  /** The remote source's answer within its sub-budget; empty without one. */
  async function remoteHits(
    namespace: string,
    call: (signal: AbortSignal) => Promise<RemoteHit[] | undefined>,
  ): Promise<RemoteHit[]> {
    if (!remote || remote.covers?.(namespace) === false) return [];
    return (await remoteWithin(remote, call)) ?? [];
  }

  /**
   * Lexical hits, fused with semantic ones when a model is loaded and answers within the
   * semantic budget; otherwise exactly the lexical ranking.
   */
  async function rank(
    namespace: string | undefined,
    prompt: string,
    limit: number,
    filter: Pick<SearchRequest, 'type' | 'file'> = {},
    report?: (outcome: SemanticOutcome) => void,
    adjust?: (ranked: RankedHit[]) => Promise<RankedHit[]>,
  ) {
    const [hits, found] = await Promise.all([
      storage.searchRecords({
        ...(namespace === undefined ? {} : { namespace }),
        query: prompt,
        limit: Math.min(limit, LIMITS.searchLimit),
        weights: opts.columnWeights,
        ...(filter.type ? { observationType: filter.type } : {}),
        ...(filter.file ? { file: filter.file } : {}),
      }),
      semanticHits(namespace, prompt, Math.min(limit, LIMITS.searchLimit), report),
    ]);
    // What can never be injected (the prompt itself, a record that says nothing) is out
    // before the ranking, so it sets neither the best lexical score the others are measured
    // against nor how much of the prompt the best hit covers.
    const stems = contentStems(prompt);
    const usable = (record: MemoryRecord) => !unusable(record, stems);
    const lexical = hits.filter((hit) => usable(hit.record));
    const semantic = found?.filter(({ record }) => matches(record, filter) && usable(record));
    const terms = analysePrompt(prompt);
    const fused =
      !semantic || semantic.length === 0
        ? rankHits(lexical, terms, opts.rankWeights, opts.now())
        : fuseHits(
            prompt,
            lexical,
            semantic,
            terms,
            opts.rankWeights,
            opts.hybridWeights,
            opts.now(),
          );
    const ranked = adjust ? await adjust(fused) : fused;
    // The newest of a chain above the records it superseded, unless the prompt asks how
    // things were; a record fetched for it must pass the search's filters too.
    return newestFirst(
      ranked,
      prompt,
      async (ids) =>
        (await storage.getRecords(ids)).filter(
          (record) =>
            (namespace === undefined || record.namespace === namespace) && matches(record, filter),
        ),
      (record, score): MergedHit => ({ record, score }),
    );
  }

  /** Records nearest the prompt's embedding; undefined when there is no model or no time. */
  async function semanticHits(
    namespace: string | undefined,
    prompt: string,
    limit: number,
    report: (outcome: SemanticOutcome) => void = () => {},
  ): Promise<SemanticHit[] | undefined> {
    const embedder = currentEmbedder(opts.semantic);
    if (!embedder || namespace === undefined) return undefined;
    const vectors = opts.semantic?.vectors ?? storage;
    let timer: NodeJS.Timeout | undefined;
    // Past the budget the prompt's embedding is withdrawn: a queued one never runs, so a
    // backlog of prompts nobody waits for cannot starve the next one.
    const abandon = new AbortController();
    const expired = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => {
        abandon.abort();
        resolve(TIMED_OUT);
      }, opts.semanticBudgetMs);
    });
    const work = (async () => {
      const [vector] = await embedder.embed([prompt], {
        purpose: 'query',
        signal: abandon.signal,
      });
      if (!vector) return undefined;
      const found = await vectors.searchVectors({
        namespace,
        modelId: embedder.modelId,
        vector,
        limit,
      });
      const similarity = new Map(found.map((hit) => [hit.recordId, hit.score]));
      // Fetched again: a record deleted since its vector was cached is simply missing.
      const records = await storage.getRecords(found.map((hit) => hit.recordId));
      return records
        .filter((record) => record.namespace === namespace)
        .map((record) => ({ record, similarity: similarity.get(record.record_id) ?? 0 }));
    })();
    try {
      const result = await Promise.race([work, expired]);
      if (result === TIMED_OUT) {
        report('timed_out');
        return undefined;
      }
      report('used');
      return result;
    } catch (error) {
      opts.onError(error);
      report('failed');
      return undefined;
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // a late failure after the race has nothing left to tell
    }
  }

  async function viewOf(namespace: string, sessionId: string | undefined) {
    return sessionId === undefined ? undefined : sessions.load(namespace, sessionId);
  }

  /**
   * Ids of the records made from this session's events within the agent's window: what it
   * still holds in its own context. A record's first and last source events stand for it
   * (one turn, or one batch of one session).
   */
  async function heldBySession(
    records: readonly MemoryRecord[],
    sessionId: string,
    view: SessionView,
    heads: HeadsReader,
  ): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const record of records) {
      const sources = record.source_event_ids;
      if (sources.length > 0) ids.add(sources[0]!).add(sources[sources.length - 1]!);
    }
    const held = new Set<string>();
    if (ids.size === 0) return held;
    const inWindow = new Set(
      (await heads([...ids]))
        .filter(
          (head) => head.sessionId === sessionId && Date.parse(head.validTime) >= view.windowStart,
        )
        .map((head) => head.eventId),
    );
    if (inWindow.size === 0) return held;
    for (const record of records) {
      const sources = record.source_event_ids;
      if (inWindow.has(sources[0]!) || inWindow.has(sources[sources.length - 1]!)) {
        held.add(record.record_id);
      }
    }
    return held;
  }

  /**
   * The records a context may hold, best first: never one that only restates the prompt or
   * says nothing, nor (with a session) one the agent still holds.
   */
  async function eligible(
    hits: readonly MergedHit[],
    prompt: string,
    sessionId: string | undefined,
    view: SessionView | undefined,
    heads: HeadsReader = headsOnce(storage),
  ): Promise<MergedHit[]> {
    const stems = contentStems(prompt);
    const kept = withoutRestatements(
      hits.filter((hit) => !unusable(hit.record, stems)),
      stems,
    );
    if (!view || sessionId === undefined) return kept;
    const subject = subjectOf(prompt);
    const shownBefore = kept.filter((hit) => !alreadyShown(view, hit.record, subject));
    const local = shownBefore.filter((hit) => !hit.remote).map((hit) => hit.record);
    const held = await heldBySession(local, sessionId, view, heads);
    return shownBefore.filter((hit) => !held.has(hit.record.record_id));
  }

  async function run(
    kind: 'prompt' | 'session',
    request: RetrieveRequest | SessionStartRequest,
    query: string,
    select: () => Promise<Selection>,
  ): Promise<RetrievalOutcome> {
    const started = performance.now();
    const deadline = started + opts.budgetMs;
    let outcome: Omit<RetrievalOutcome, 'latencyMs'> = {
      context: '',
      records: [],
      scores: [],
      timedOut: false,
      budgetCut: false,
    };
    let view: SessionView | undefined;
    let subject: Shown['subject'] = 'any';
    let repeats: MemoryRecord[] = [];
    let placed: RemoteHit[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const expired = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), opts.budgetMs);
      });
      const work = (async () => {
        const selection = await select();
        const remoteOf = new Map<MemoryRecord, MergedHit>();
        for (const hit of selection.ranked) if (hit.remote) remoteOf.set(hit.record, hit);
        const self = remote?.self?.();
        const successors = selection.successors;
        const limits = {
          ...budget,
          ...(kind === 'session' ? { tokens: opts.sessionStartTokens } : {}),
          ...(successors && successors.size > 0
            ? { successor: (record: MemoryRecord) => successors.get(record.record_id) }
            : {}),
        };
        const format = formatContext(
          selection.ranked.map((hit) => hit.record),
          remoteOf.size === 0
            ? limits
            : {
                ...limits,
                author: (record) => {
                  const hit = remoteOf.get(record);
                  return hit && authorLabel(hit, self);
                },
              },
        );
        const placed = format.records.flatMap((record) => remoteOf.get(record)?.remote ?? []);
        return { selection, format, placed };
      })();
      const result = await Promise.race([work, expired]);
      // A synchronous backend blocks the timer, so the clock is checked as well.
      if (result === TIMED_OUT || performance.now() > deadline) {
        outcome = { ...outcome, timedOut: true };
      } else {
        view = result.selection.view;
        subject = result.selection.subject;
        if (result.selection.semantic) outcome.semantic = result.selection.semantic;
        const scoreOf = new Map(result.selection.ranked.map((hit) => [hit.record, hit.score]));
        outcome = {
          ...outcome,
          context: result.format.context,
          records: result.format.records.map((record) => record.record_id),
          scores: result.format.records.map((record) => scoreOf.get(record) ?? 0),
          budgetCut: result.format.budgetCut,
          ...(result.placed.length > 0
            ? {
                remote: result.placed.map((hit) => ({
                  recordId: hit.record.record_id,
                  author: hit.author,
                })),
              }
            : {}),
        };
        repeats = result.format.repeats;
        placed = result.placed;
      }
    } catch (error) {
      opts.onError(error);
      outcome = { ...outcome, error: message(error) };
    } finally {
      clearTimeout(timer);
    }
    const latencyMs = performance.now() - started;
    const result = { ...outcome, latencyMs };
    // Notes that the context reached the agent: its records (and the repeats it left out) in
    // the session's view, the team records it placed kept, a retrieval log line.
    const noteShown = () => {
      if (view) {
        const shown: Shown = { at: opts.now(), subject };
        for (const id of result.records) remember(view, id, shown);
        // The agent has what a repeat says, so a later prompt on the subject need not bring
        // it. Held in memory only: the log lists what was injected, so a restart forgets these.
        for (const record of repeats) remember(view, record.record_id, shown);
      }
      if (placed.length > 0) {
        // After the answer: whatever the listener does cannot delay the prompt.
        setImmediate(() => {
          try {
            remote?.onPlaced?.(placed, request.namespace);
          } catch (error) {
            opts.onError(error);
          }
        });
      }
      if (opts.log && (kind === 'session' || query !== '')) {
        const write = (async () => {
          await storage.logRetrieval({
            namespace: request.namespace,
            ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
            ...(request.eventId === undefined ? {} : { eventId: request.eventId }),
            query,
            recordIds: result.records,
            scores: result.scores,
            latencyMs,
            timedOut: result.timedOut,
            budgetCut: result.budgetCut,
            ...(result.error === undefined ? {} : { error: result.error }),
          });
        })()
          .catch(opts.onError)
          .finally(() => logging.delete(write));
        logging.add(write);
      }
    };
    // Only once it is shown (see RetrieveRequest.delivered).
    const delivered = 'delivered' in request ? request.delivered : undefined;
    if (delivered === undefined) {
      noteShown();
    } else {
      const waiting = Promise.resolve(delivered)
        .then(
          (shown) => {
            if (shown) noteShown();
          },
          () => {},
        )
        .catch(opts.onError)
        .finally(() => logging.delete(waiting));
      logging.add(waiting);
    }
    return result;
  }

  return {
    options: opts,

    retrieve(input) {
      const request = input ?? ({} as RetrieveRequest);
      const prompt = typeof request?.prompt === 'string' ? request.prompt : '';
      const query = prompt.slice(0, opts.maxQueryChars).trim();
      return run('prompt', request, query, async () => {
        const subject = subjectOf(query);
        if (query === '') return { ranked: [], view: undefined, subject };
        let semantic: SemanticOutcome | undefined;
        const withWorking = opts.rankWeights.workingSet > 0;
        // With a session: the project's newest records (the working set's) and the session's
        // events in one read, which also answers which ranked records the session made.
        const reads =
          request.sessionId === undefined
            ? undefined
            : storage
                .sessionReads({
                  namespace: request.namespace,
                  sessionId: request.sessionId,
                  records: withWorking ? RECENT_RECORDS : 0,
                  events: SESSION_EVENTS,
                })
                .catch((error: unknown) => {
                  opts.onError(error);
                  return undefined;
                });
        const heads = reads ? sessionHeads(reads, storage) : headsOnce(storage);
        // The files this session worked on so far, and the records that cover them: found
        // while the prompt's own search runs.
        const working =
          request.sessionId === undefined || !withWorking
            ? undefined
            : (async () => {
                const files = await sessionFiles(
                  (await reads)?.records ?? [],
                  heads,
                  request.sessionId!,
                );
                return {
                  files,
                  covering: await coveringRecords(storage, request.namespace, files),
                };
              })().catch((error) => {
                opts.onError(error);
                return undefined;
              });
        const [{ ranked, successors }, view, fromRemote] = await Promise.all([
          rank(
            request.namespace,
            query,
            opts.candidates,
            {},
            (how) => {
              semantic = how;
            },
            async (fused) => {
              const set = await working;
              return set
                ? withWorkingSet(
                    fused,
                    set.covering,
                    set.files,
                    opts.rankWeights.workingSet,
                    opts.rankWeights,
                    opts.now(),
                  )
                : fused;
            },
          ),
          viewOf(request.namespace, request.sessionId),
          remoteHits(request.namespace, (signal) =>
            remote!.search({ namespace: request.namespace, query, limit: opts.maxRecords }, signal),
          ),
        ]);
        // A prompt with no subject of its own (`yes`, `2`, `continue`) answers the agent:
        // memory adds to it only what is very close in meaning.
        const candidates = informationFree(query)
          ? ranked.filter((hit) => (hit.similarity ?? 0) >= STRONG_SIMILARITY)
          : ranked;
        const local = await eligible(candidates, query, request.sessionId, view, heads);
        const floor = (local[0]?.score ?? 0) * opts.minRelativeScore;
        const kept = local.filter((hit) => hit.score >= floor);
        const teammates = informationFree(query)
          ? []
          : await eligible(
              fromRemote.map((hit) => ({ record: hit.record, score: hit.score, remote: hit })),
              query,
              undefined,
              undefined,
            );
        const merged = mergeRemote(
          kept,
          teammates.map((hit) => hit.remote!),
          opts.minRelativeScore,
        );
        // Not cut at maxRecords here: a record left out as a repeat lets the next one in.
        return { ranked: merged, view, subject, successors, ...(semantic ? { semantic } : {}) };
      });
    },

    sessionStart(input) {
      const request = input ?? ({} as SessionStartRequest);
      return run('session', request, SESSION_START_QUERY, async () => {
        const [page, view, fromRemote] = await Promise.all([
          storage.listRecords({ namespace: request.namespace, limit: 100, count: false }),
          viewOf(request.namespace, request.sessionId),
          remoteHits(request.namespace, (signal) =>
            remote!.recent({ namespace: request.namespace, limit: 4 }, signal),
          ),
        ]);
        // After a compaction or /clear the agent no longer holds the session so far.
        if (view && resetsWindow(request.reason)) view.windowStart = opts.now();
        let own = page.items.filter((record) => !view || !alreadyShown(view, record, undefined));
        if (view && request.sessionId !== undefined) {
          const held = await heldBySession(own, request.sessionId, view, headsOnce(storage));
          own = own.filter((record) => !held.has(record.record_id));
        }
        const ids = new Set(page.items.map((record) => record.record_id));
        // What teammates shared lately (records this machine has are not repeated).
        const teammates = new Map<MemoryRecord, RemoteHit>();
        for (const hit of fromRemote) {
          if (ids.has(hit.record.record_id)) continue;
          if (view && alreadyShown(view, hit.record, undefined)) continue;
          ids.add(hit.record.record_id);
          teammates.set(hit.record, hit);
        }
        const records = [
          ...overview(own, { records: opts.sessionStartRecords }),
          ...overview([...teammates.keys()], { records: 2 }),
        ];
        // Scores here only record the order chosen: 1 for the first, falling evenly.
        const ranked = records.map((record, i): MergedHit => {
          const hit = teammates.get(record);
          return { record, score: 1 - i / records.length, ...(hit ? { remote: hit } : {}) };
        });
        return { ranked, view, subject: 'any' as const };
      });
    },

    async windowReset(request) {
      try {
        const view = await sessions.load(request.namespace, request.sessionId);
        view.windowStart = Math.max(view.windowStart, request.at ?? opts.now());
      } catch (error) {
        opts.onError(error);
      }
    },

    async flush() {
      while (logging.size > 0) await Promise.all(logging);
    },

    async search(request) {
      const limit = request.limit ?? opts.maxRecords;
      const { namespace } = request;
      const asksRemote = request.remote === true && remote !== undefined && namespace !== undefined;
      const [{ ranked }, fromRemote] = await Promise.all([
        rank(namespace, request.query, Math.max(limit, opts.candidates), request),
        asksRemote
          ? remoteHits(namespace, (signal) =>
              remote.search({ namespace, query: request.query, limit }, signal),
            )
          : Promise.resolve([]),
      ]);
      // The same rules as a prompt's, but no session: never the query itself, nothing empty.
      const local = await eligible(ranked, request.query, undefined, undefined);
      if (fromRemote.length === 0) return local.slice(0, limit);
      const teammates = await eligible(
        fromRemote.map((hit) => ({ record: hit.record, score: hit.score, remote: hit })),
        request.query,
        undefined,
        undefined,
      );
      const merged = mergeRemote(
        local,
        teammates.map((hit) => hit.remote!),
        opts.minRelativeScore,
      ).slice(0, limit);
      const placed = merged.flatMap((hit) => hit.remote ?? []);
      if (placed.length > 0 && namespace !== undefined) {
        // As for a prompt: the caller has the answer first, then the team copies are kept.
        setImmediate(() => {
          try {
            remote?.onPlaced?.(placed, namespace);
          } catch (error) {
            opts.onError(error);
          }
        });
      }
      return merged;
    },
  };
}
