import { tmpdir } from 'node:os';
import { bodyText, type Event, type MemoryRecord } from '@kiro-learn/schema';
import { runAcpPrompt } from './acp.js';
import { digestAnswer } from './builtin/prose.js';
import { groupTurns } from './builtin/turns.js';
import { parseCommand } from './command.js';
import {
  buildCompactionPrompt,
  type CompactionReply,
  type CompactionRequest,
  parseCompactionReply,
} from './compaction.js';
import { ExtractorError } from './errors.js';
import { type FramedPart, frameBatches } from './frame.js';
import { createLimiter, type Limiter } from './limiter.js';
import { parseReply } from './parse.js';
import { buildPrompt } from './prompt.js';
import { toRecord } from './records.js';
import type { ExtractionBatch, ExtractionResult, Extractor } from './types.js';

/** Settings of the ACP extractor; every field has the DESIGN.md §4 default. */
export interface AcpExtractorOptions {
  /** Agent command line or argv; default `kiro-cli acp --agent kiro-learn-compressor`. */
  command?: string | readonly string[];
  /** Working directory of the agent; default the OS temp dir (the compressor needs no project). */
  cwd?: string;
  /** Environment of the agent; the collector's when omitted. */
  env?: NodeJS.ProcessEnv;
  /** Per-session limit, spawn to reply; default 60 000 ms. */
  timeoutMs?: number;
  /** SIGTERM → SIGKILL grace; default 2000 ms. */
  killGraceMs?: number;
  /** Sessions per batch chunk when replies are garbage; default 3. */
  attempts?: number;
  /** Agent processes running at once across all projects; default 2. Ignored when `limiter` is given. */
  concurrency?: number;
  /** Share one queue between extractors (FIFO across projects). */
  limiter?: Limiter;
  /** Characters of framed events per prompt; larger batches are split; default 200 000. */
  maxPromptChars?: number;
  /** Characters kept of one tool input or output; default 16 000 (head and tail). */
  maxFieldChars?: number;
  /** Aborting stops every running agent and fails their extractions (`aborted`). */
  signal?: AbortSignal;
  /** Where running agents' pids are recorded, for reapStaleAgents after a crash. */
  pidDir?: string;
}

export const ACP_DEFAULTS = {
  command: 'kiro-cli acp --agent kiro-learn-compressor',
  timeoutMs: 60_000,
  killGraceMs: 2000,
  attempts: 3,
  concurrency: 2,
  maxPromptChars: 200_000,
  maxFieldChars: 16_000,
} as const;

/**
 * Extraction by an ACP agent: one fresh agent process per prompt, at most `concurrency`
 * at once. A batch too large for one prompt is split; all parts must succeed or the
 * whole batch fails (and stays pending), so a retry never stores records twice.
 */
export function createAcpExtractor(options: AcpExtractorOptions = {}): Extractor {
  const settings = Object.freeze({ ...ACP_DEFAULTS, ...definedOnly(options) });
  const command = parseCommand(settings.command);
  for (const [name, value] of Object.entries({
    timeoutMs: settings.timeoutMs,
    attempts: settings.attempts,
    concurrency: settings.concurrency,
    maxPromptChars: settings.maxPromptChars,
  })) {
    if (!Number.isInteger(value) || value < 1) {
      throw new ExtractorError(
        'invalid_config',
        `${name} must be a whole number of at least 1, not ${value}`,
      );
    }
  }
  const limiter = options.limiter ?? createLimiter(settings.concurrency);
  const cwd = settings.cwd ?? tmpdir();

  const ask = (prompt: string) =>
    limiter.run(() =>
      runAcpPrompt({
        command,
        prompt,
        cwd,
        timeoutMs: settings.timeoutMs,
        killGraceMs: settings.killGraceMs,
        ...(settings.env ? { env: settings.env } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.pidDir ? { pidDir: options.pidDir } : {}),
      }),
    );

  async function extractPart(
    part: FramedPart,
    batch: ExtractionBatch,
  ): Promise<{ records: MemoryRecord[]; attempts: number; supersedes: Record<string, string[]> }> {
    const { namespace } = batch;
    const memories = (batch.memories ?? []).filter((m) => m.namespace === namespace);
    const prompt = buildPrompt(part.text, batch.summary, memories);
    const shown = new Set(memories.map((m) => m.record_id));
    const idle = askedOnly(batch.events.filter((e) => part.eventIds.includes(e.event_id)));
    let lastReason = '';
    for (let attempt = 1; attempt <= settings.attempts; attempt++) {
      const reply = await ask(prompt);
      const parsed = parseReply(reply.text);
      if (parsed.kind === 'skip') return { records: [], attempts: attempt, supersedes: {} };
      if (parsed.kind === 'records') {
        const supersedes: Record<string, string[]> = {};
        const records: MemoryRecord[] = [];
        let asked = 0;
        for (const draft of parsed.drafts) {
          const record = toRecord(draft, {
            namespace,
            batchIds: part.eventIds,
            strategy: 'llm-summary',
          });
          if (!record) continue;
          // A record of turns that only asked says nothing the prompt did not: dropped,
          // whatever the model wrote (the prompt asks for none).
          if (record.source_event_ids.every((id) => idle.has(id))) {
            asked++;
            continue;
          }
          records.push(record);
          const named = [...new Set(draft.supersedes ?? [])].filter((id) => shown.has(id));
          if (named.length) supersedes[record.record_id] = named;
        }
        if (records.length > 0 || asked > 0) {
          return { records, attempts: attempt, supersedes };
        }
        lastReason = 'no block survived validation';
      } else lastReason = parsed.reason;
    }
    throw new ExtractorError(
      'garbage',
      `no usable reply after ${settings.attempts} attempts: ${lastReason}`,
      { attempts: settings.attempts },
    );
  }

  return {
    name: 'acp',
    async extract(batch) {
      const result: ExtractionResult = { extractor: 'acp', records: [], attempts: 0 };
      if (batch.events.length === 0) return result;
      const supersedes: Record<string, string[]> = {};
      for (const part of frameBatches(
        batch.events,
        settings.maxPromptChars,
        settings.maxFieldChars,
      )) {
        const done = await extractPart(part, batch);
        result.records.push(...done.records);
        result.attempts += done.attempts;
        Object.assign(supersedes, done.supersedes);
      }
      if (Object.keys(supersedes).length > 0) result.supersedes = supersedes;
      return result;
    },
    async summarize(request: CompactionRequest): Promise<CompactionReply> {
      const prompt = buildCompactionPrompt(request, settings.maxFieldChars);
      let lastReason = '';
      for (let attempt = 1; attempt <= settings.attempts; attempt++) {
        const parsed = parseCompactionReply((await ask(prompt)).text);
        if (parsed.kind === 'summary') return { ...parsed.reply, summarizer: 'acp' };
        lastReason = parsed.reason;
      }
      throw new ExtractorError(
        'garbage',
        `no usable summary after ${settings.attempts} attempts: ${lastReason}`,
        { attempts: settings.attempts },
      );
    },
  };
}

/**
 * Event ids of the turns in `events` that only asked: a prompt, no tool use, and an end
 * with no answer worth keeping (or no end yet). Records citing only these are dropped.
 */
function askedOnly(events: readonly Event[]): Set<string> {
  const ids = new Set<string>();
  for (const turn of groupTurns(events)) {
    if (!turn.prompt) continue;
    const used = turn.events.some((event) => event.kind === 'tool_use');
    const answered = turn.end ? digestAnswer(bodyText(turn.end.body)).substantive : false;
    if (!used && !answered) for (const event of turn.events) ids.add(event.event_id);
  }
  return ids;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
