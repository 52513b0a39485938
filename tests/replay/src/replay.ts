/**
 * Replays transcripts, in order, through the installed hooks of one real collector: each
 * hook call as its own process, the collector extracting at every turn end (the replay
 * waits for it, as the minutes between real turns would), each prompt's context kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryRecord } from '@kiro-learn/schema';
import { type Transcript, transcriptToHooks } from './transcript.ts';
import { makeWorld, type World, type WorldOptions } from './world.ts';

export interface TranscriptSource {
  /** Short name (reports). */
  name: string;
  /** Transcripts of one project are replayed into one project directory. */
  project: string;
  /** The JSON Lines file. */
  file: string;
}

/** What one prompt got back: the text the hook printed and the records it named. */
export interface PromptContext {
  turn: number;
  prompt: string;
  /** The hook's stdout (what the agent would read), `''` when nothing was injected. */
  context: string;
  /** Record ids in the context, best first. */
  recordIds: string[];
  /** Those records as they were when the prompt got them. */
  records: MemoryRecord[];
}

export interface ReplayedTranscript {
  name: string;
  project: string;
  sessionId: string;
  turns: number;
  toolCalls: number;
  prompts: string[];
  /** Records stored while this transcript was replayed (extracted from its turns). */
  records: MemoryRecord[];
  contexts: PromptContext[];
  /** SessionStart hook output (the context a new session starts with). */
  sessionStart: string;
  /** Hook processes that exited non-zero or printed to stderr (should be none). */
  hookFailures: Array<{ event: string; code: number | null; stderr: string }>;
}

export interface ReplayResult {
  transcripts: ReplayedTranscript[];
  /** Every record in the store at the end, per project name. */
  store: Map<string, MemoryRecord[]>;
  /** Tool names seen in the replayed transcripts (for the "tool name as file" figure). */
  toolNames: Set<string>;
}

export interface ReplayOptions extends WorldOptions {
  /** Called after each transcript (progress). */
  onTranscript?: (done: ReplayedTranscript) => void;
  /** An existing world (its collector keeps running); a fresh one when omitted. */
  world?: World;
}

async function allRecords(world: World): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await world.get<{ items: MemoryRecord[]; total: number }>(
      `/v1/memories?limit=500&offset=${offset}`,
    );
    out.push(...page.items);
    if (page.items.length < 500) return out;
  }
}

async function lastRetrieval(world: World, sessionId: string): Promise<string[]> {
  const { items } = await world.get<{ items: Array<{ recordIds: string[] }> }>(
    `/v1/retrievals?limit=1&session_id=${encodeURIComponent(sessionId)}`,
  );
  return items[0]?.recordIds ?? [];
}

/** Replays `sources` in order and reports what was stored and what came back. */
export async function replay(
  sources: readonly TranscriptSource[],
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const world = options.world ?? (await makeWorld(options));
  try {
    const transcripts: ReplayedTranscript[] = [];
    const toolNames = new Set<string>();
    const namespaces = new Map<string, string>();
    for (const source of sources) {
      const project = world.project(source.project);
      const transcript: Transcript = transcriptToHooks(readFileSync(source.file, 'utf8'), {
        cwd: project,
        transcriptPath: join(world.root, 'transcripts', `${source.name}.jsonl`),
      });
      const before = new Set((await allRecords(world)).map((r) => r.record_id));
      const done: ReplayedTranscript = {
        name: source.name,
        project: source.project,
        sessionId: transcript.sessionId,
        turns: transcript.prompts.length,
        toolCalls: transcript.toolCalls,
        prompts: transcript.prompts,
        records: [],
        contexts: [],
        sessionStart: '',
        hookFailures: [],
      };
      for (const call of transcript.calls) {
        if (call.event === 'PostToolUse' || call.event === 'PostToolUseFailure') {
          toolNames.add(String(call.payload.tool_name));
        }
        const result = await world.hook(project, call.event, call.payload);
        if (result.code !== 0 || result.stderr.trim() !== '') {
          done.hookFailures.push({ event: call.event, code: result.code, stderr: result.stderr });
        }
        if (call.event === 'SessionStart' && call.payload.source === 'startup') {
          done.sessionStart = result.stdout;
        }
        if (call.event === 'UserPromptSubmit') {
          const recordIds = result.stdout.trim()
            ? await lastRetrieval(world, transcript.sessionId)
            : [];
          done.contexts.push({
            turn: call.turn,
            prompt: String(call.payload.prompt),
            context: result.stdout,
            recordIds,
            // As they were then: a later extraction may merge more of the session into them.
            records: await Promise.all(
              recordIds.map((id) => world.get<MemoryRecord>(`/v1/memories/${id}`)),
            ),
          });
        }
        // The next prompt comes minutes later in a real session: extraction has finished.
        if (call.event === 'Stop' || call.event === 'SessionEnd') await world.settle();
      }
      await world.settle();
      done.records = (await allRecords(world)).filter((r) => !before.has(r.record_id));
      const namespace = done.records[0]?.namespace;
      if (namespace) namespaces.set(source.project, namespace);
      transcripts.push(done);
      options.onTranscript?.(done);
    }
    const everything = await allRecords(world);
    const store = new Map<string, MemoryRecord[]>();
    for (const [project, namespace] of namespaces) {
      store.set(
        project,
        everything.filter((r) => r.namespace === namespace),
      );
    }
    return { transcripts, store, toolNames };
  } finally {
    if (!options.world) world.close();
  }
}
