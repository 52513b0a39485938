import { type PauseView, pauses } from '../data/pause.js';
import {
  api,
  cliAddress,
  otherDataDir,
  otherDataDirHelp,
  probeRunning,
} from '../lifecycle/client.js';
import { daemonFiles, readPidFile } from '../lifecycle/files.js';
import type { SemanticPrompts, SemanticStatus } from '../semantic.js';
import type { StorageHealth } from '../storage.js';
import { line, parseCommandArgs } from './args.js';
import type { Command } from './types.js';

/** Semantic search as a running collector reports it (an older one: any state, no prompts). */
type SemanticView = Omit<SemanticStatus, 'state' | 'prompts'> & {
  state: string;
  prompts?: SemanticPrompts;
};

/**
 * One line on semantic search: on with its model and coverage, or off and why; then, when
 * prompts since start were answered lexical only, how many and why.
 */
export function semanticLine(s: SemanticView): string {
  let text: string;
  if (s.state === 'on') {
    const missing = s.vectors ? s.vectors.records - s.vectors.withVector : 0;
    const coverage = s.vectors
      ? `; ${s.vectors.withVector} of ${s.vectors.records} records embedded${missing > 0 ? ' (the rest in the background, or: kiro-learn reindex)' : ''}`
      : '';
    const engine = [s.runtime, s.precision].filter(Boolean).join(' ');
    text = `semantic search: on (${s.model}, ${engine})${coverage}`;
  } else {
    text = `semantic search: ${s.state}${s.reason ? `: ${s.reason}` : ''}`;
  }
  const p = s.prompts;
  const fellBack = p ? p.timedOut + p.failed : 0;
  if (p && fellBack > 0) {
    const why = [
      p.timedOut > 0 ? `${p.timedOut} timed out` : '',
      p.failed > 0 ? `${p.failed} failed` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const hint =
      p.timedOut > 0
        ? '; the model did not answer within its share of retrieval.budgetMs: the machine is busy'
        : '';
    text += `\n    ${fellBack} of ${p.used + fellBack} prompts since start answered lexical only (semantic share ${why}${hint})`;
  }
  return text;
}

/** The search index's backlog line, or nothing when the index is complete. */
export function searchBacklogLine(backlog: number | undefined): string | undefined {
  if (!backlog) return undefined;
  return `search index: ${backlog.toLocaleString('en-US')} records still being indexed (searches are slower until it finishes)`;
}

interface PipelineView {
  semantic?: SemanticView;
  /** Records the search index has yet to take in (absent from an older collector). */
  search_backlog?: number;
  extractor?: string;
  storage?: StorageHealth;
  projects: Array<{
    namespace: string;
    pendingEvents: number;
    pendingBytes: number;
    overCeiling: boolean;
    breaker: { state: string; consecutiveFailures: number };
    lastRun?: { status: string; startedAt: string };
    compaction?: {
      passes: number;
      head?: { pass: number; tokens: { before: number; after: number } };
      exhausted?: { at: string };
      lastError?: string;
    };
  }>;
}

export const status: Command = {
  name: 'status',
  summary: 'say whether the collector runs, where, and what it holds',
  usage: `kiro-learn status [--json]

Exit code 0 when the collector answers on its port, 1 when it does not.
  --json   one JSON object: running, pid, version, url, home, log, events, memories, storage, paused,
           search_backlog (records the search index has yet to take in; absent when none)
           (port_held_by: {home, pid} when another data dir's collector holds the port)`,
  async run(args, io) {
    const { values } = parseCommandArgs('status', args, { json: { type: 'boolean' } });
    const address = cliAddress(io.env);
    const files = daemonFiles(address.home);
    const answered = await probeRunning(address, files.lock);
    // Another data dir's collector on this port is not this data dir's: nothing of it is
    // reported as this one's (its totals, its projects), only that it holds the port.
    const other = otherDataDir(answered, address.home);
    const health: typeof answered = other === undefined ? answered : { ok: false };
    const recorded = readPidFile(files.pid);
    let totals: { events: number; memories: number } | undefined;
    let pipeline: PipelineView | undefined;
    if (health.ok) {
      try {
        const stats = await api<{ events: { total: number }; memories: { total: number } }>(
          address,
          '/v1/stats',
        );
        totals = { events: stats.events.total, memories: stats.memories.total };
        pipeline = await api<PipelineView>(address, '/v1/status');
      } catch {
        // a token mismatch or a busy collector: status still answers
      }
    }
    const paused = pauses(address.home, Date.now());
    const report = {
      running: health.ok,
      ...(paused.length > 0 ? { paused } : {}),
      ...(health.ok && health.pid !== undefined ? { pid: health.pid } : {}),
      ...(health.version ? { version: health.version } : {}),
      url: address.baseUrl,
      home: address.home,
      ...(other !== undefined
        ? { port_held_by: { home: other, ...(answered.pid ? { pid: answered.pid } : {}) } }
        : {}),
      log: files.log,
      ...(health.ok && recorded?.pid === health.pid ? { started_at: recorded?.startedAt } : {}),
      ...totals,
      ...(pipeline
        ? {
            ...(pipeline.storage ? { storage: pipeline.storage } : {}),
            extractor: pipeline.extractor,
            ...(pipeline.semantic ? { semantic: pipeline.semantic } : {}),
            ...(pipeline.search_backlog ? { search_backlog: pipeline.search_backlog } : {}),
            projects: pipeline.projects.map((p) => ({
              namespace: p.namespace,
              pending_events: p.pendingEvents,
              pending_bytes: p.pendingBytes,
              over_ceiling: p.overCeiling,
              breaker: p.breaker.state,
              ...(p.compaction?.head
                ? {
                    compaction: {
                      summaries: p.compaction.head.pass,
                      tokens_before: p.compaction.head.tokens.before,
                      tokens_after: p.compaction.head.tokens.after,
                      ...(p.compaction.exhausted ? { exhausted: true } : {}),
                    },
                  }
                : {}),
              ...(p.lastRun
                ? { last_extraction: { status: p.lastRun.status, at: p.lastRun.startedAt } }
                : {}),
            })),
          }
        : {}),
    };
    if (values.json) line(io.stdout, JSON.stringify(report));
    else if (health.ok) {
      line(
        io.stdout,
        `kiro-learn collector is running (pid ${health.pid ?? '?'}, version ${health.version ?? '?'}) at ${address.baseUrl}`,
      );
      if (totals) line(io.stdout, `  ${totals.events} events, ${totals.memories} memories`);
      if (pipeline?.storage) line(io.stdout, `  storage: ${describeStorage(pipeline.storage)}`);
      if (pipeline?.extractor) line(io.stdout, `  extractor: ${pipeline.extractor}`);
      if (pipeline?.semantic) line(io.stdout, `  ${semanticLine(pipeline.semantic)}`);
      const slow = pipeline?.semantic?.slow;
      if (slow) line(io.stdout, `  ! ${slow.what}; fix: ${slow.fix}`);
      const backlog = searchBacklogLine(pipeline?.search_backlog);
      if (backlog) line(io.stdout, `  ${backlog}`);
      for (const p of pipeline?.projects ?? []) {
        const breaker =
          p.breaker.state === 'closed'
            ? ''
            : `, extraction paused (breaker ${p.breaker.state} after ${p.breaker.consecutiveFailures} failures)`;
        const ceiling = p.overCeiling ? ', buffer full: new events stored but not buffered' : '';
        const head = p.compaction?.head;
        const compaction = head
          ? `, compacted in ${head.pass} summaries (last: ${head.tokens.before} → ${head.tokens.after} tokens)`
          : '';
        line(
          io.stdout,
          `  ${p.namespace}: ${p.pendingEvents} pending (${p.pendingBytes} bytes)${compaction}${breaker}${ceiling}`,
        );
      }
      for (const p of paused) line(io.stdout, `  ${pauseLine(p)}`);
      line(io.stdout, `  data: ${address.home}`);
      line(io.stdout, `  log:  ${files.log}`);
    } else {
      for (const p of paused) line(io.stdout, pauseLine(p));
      line(
        io.stdout,
        other !== undefined
          ? (({ held, fix }) =>
              `kiro-learn collector for ${address.home} is not running: ${held}; ${fix}`)(
              otherDataDirHelp(address, other, answered.pid),
            )
          : `kiro-learn collector is not running (nothing answers at ${address.baseUrl}); start it with: kiro-learn start`,
      );
    }
    return health.ok ? 0 : 1;
  },
};

function pauseLine(p: PauseView): string {
  const what = p.scope === 'all' ? 'every project' : (p.root ?? p.scope);
  return `capture paused for ${what} ${p.until ? `until ${p.until}` : 'until kiro-learn resume'}`;
}

/** One line: backend, where, and its health. */
export function describeStorage(s: StorageHealth): string {
  if (s.backend === 'sqlite') return `SQLite ${s.location}`;
  if (!s.ok) return `PostgreSQL ${s.location}: unavailable (${s.error ?? 'no answer'})`;
  const pool = s.pool
    ? `, pool ${s.pool.open}/${s.pool.max} open, ${s.pool.idle} idle, ${s.pool.waiting} waiting`
    : '';
  return `PostgreSQL ${s.version ?? '?'} at ${s.location} (${s.latency_ms ?? '?'} ms${pool})`;
}
