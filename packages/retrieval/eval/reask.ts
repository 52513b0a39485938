/**
 * The re-asking eval: every prompt of a set asked twice, end to end over HTTP, with a
 * real collector and its built-in extractor in between. The first asking is a turn of its
 * own session (`POST /v1/events?retrieve=true`, then the turn's end); once the collector
 * has extracted every first asking, each prompt is asked again in a new session. A memory
 * that turns a question into a record hands the question back to itself on the second
 * asking; this eval measures how much.
 *
 *   ./pnpmw --filter kiro-learn build     # the collector this eval starts
 *   ./pnpmw --filter @kiro-learn/retrieval eval:reask [--set turns] [--mode answered] [--misses] [--made]
 *
 * How the first asking's turn ends (`--mode`, default all three):
 * - `asked`: no tool use and no answer (the user asked and moved on, or interrupted);
 * - `answered`: the agent answers with what its context gave it first (the first injected
 *   record's title and first sentence), as an agent answering from memory does;
 * - `legacy`: as `asked`, plus the record earlier versions of the built-in extractor made
 *   of such a turn (`Request: <prompt>` / `No tools were used.`), saved over HTTP: the
 *   question-only records a store from before "records only for turns that learned
 *   something" still holds.
 *
 * Prints, per set and mode: R@1, R@5 and MRR per tag of the context injected at the first
 * and the second asking (records in context order; the relevant records are the set's
 * labels, never a record the asking made), and of every ranker of rankers.ts (lexical,
 * semantic, hybrid) over the store as it is after the first askings, beside the same
 * rankers over the set alone; then the share of injected records that are echoes (made
 * from an asking, no fact, no file and fewer than three words the prompt does not say),
 * made from this very prompt's first asking (not a record of the set it was merged into),
 * from the current session, or with no fact
 * and no file, and the characters injected per prompt. Asserts nothing.
 */
import { parseArgs } from 'node:util';
import { type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { FRAMING_WORDS, words } from '@kiro-learn/test-harness/words';
import { type Collector, startCollector } from './collector.ts';
import { mean, type Scores, score } from './metrics.ts';
import { RANKERS } from './rankers.ts';
import {
  type EvalSet,
  type LabelledPrompt,
  type LabelledRecord,
  NOW,
  namespaceOf,
  SETS,
  toMemoryRecord,
} from './sets.ts';
import { printTable, runSet } from './table.ts';

type Mode = 'asked' | 'answered' | 'legacy';
const MODES: readonly Mode[] = ['asked', 'answered', 'legacy'];

interface Asking {
  prompt: LabelledPrompt;
  sessionId: string;
  eventIds: string[];
  records: string[];
  context: string;
}

/** A record that says nothing its prompt did not: no fact, no file, < 3 words of its own. */
function echoOf(record: MemoryRecord, prompt: string): boolean {
  if (record.facts.length > 0 || record.files_touched.length > 0) return false;
  const asked = new Set(words(prompt));
  let fresh = 0;
  for (const w of new Set(words(`${record.title}\n${record.summary}`))) {
    if (!asked.has(w) && !FRAMING_WORDS.has(w)) fresh++;
  }
  return fresh < 3;
}

const clock = { t: Date.now() };
function event(
  project: string,
  sessionId: string,
  kind: 'prompt' | 'session_summary',
  body: unknown,
): { id: string; event: Record<string, unknown> } {
  clock.t += 1000;
  const id = newUlid(clock.t);
  return {
    id,
    event: {
      event_id: id,
      session_id: sessionId,
      actor_id: 'eval',
      namespace: namespaceOf(project),
      schema_version: 1,
      kind,
      body,
      valid_time: new Date(clock.t).toISOString(),
      source: { surface: 'claude-code', version: '0.0.0', client_id: 'eval' },
    },
  };
}

/** Saves the set's records over HTTP (supersessions named as the set names them). */
async function load(collector: Collector, set: EvalSet): Promise<Map<string, string>> {
  const idOf = new Map<string, string>();
  const pending = [...set.records];
  while (pending.length > 0) {
    const next = pending.findIndex((r) => r.supersedes === undefined || idOf.has(r.supersedes));
    const [r] = pending.splice(Math.max(next, 0), 1) as [LabelledRecord];
    const record = toMemoryRecord(r);
    await collector.post('/v1/memories', {
      ...record,
      ...(r.supersedes && idOf.has(r.supersedes) ? { supersedes: [idOf.get(r.supersedes)] } : {}),
    });
    idOf.set(r.key, record.record_id);
  }
  return idOf;
}

async function ask(
  collector: Collector,
  prompt: LabelledPrompt,
  sessionId: string,
): Promise<Asking> {
  const { id, event: body } = event(prompt.project, sessionId, 'prompt', {
    type: 'text',
    content: prompt.prompt,
  });
  const answer = await collector.post<{ retrieval?: { context: string; records: string[] } }>(
    '/v1/events?retrieve=true',
    body,
  );
  return {
    prompt,
    sessionId,
    eventIds: [id],
    records: answer.retrieval?.records ?? [],
    context: answer.retrieval?.context ?? '',
  };
}

/** The turn's end: no answer, or the agent's answer from the context it was given. */
async function end(
  collector: Collector,
  asking: Asking,
  mode: Mode,
  byId: ReadonlyMap<string, MemoryRecord>,
) {
  let body: unknown = { type: 'text', content: '' };
  if (mode === 'answered') {
    const top = asking.records[0] === undefined ? undefined : byId.get(asking.records[0]);
    const first = top?.summary.split(/(?<=[.!?])\s/)[0] ?? '';
    const text = top
      ? `${top.title}. ${first}`
      : 'I could not find anything about that in the project yet.';
    body = { type: 'message', turns: [{ role: 'assistant', content: text }] };
  }
  const { id, event: payload } = event(
    asking.prompt.project,
    asking.sessionId,
    'session_summary',
    body,
  );
  asking.eventIds.push(id);
  await collector.post('/v1/events', payload);
  if (mode === 'legacy') {
    const time = clock.t;
    await collector.post('/v1/memories', {
      record_id: newRecordId(time),
      namespace: namespaceOf(asking.prompt.project),
      strategy: 'builtin',
      title: asking.prompt.prompt.slice(0, 120),
      summary: `Request: ${asking.prompt.prompt}\nNo tools were used.`,
      facts: [],
      concepts: [],
      files_touched: [],
      observation_type: 'session_summary',
      source_event_ids: asking.eventIds,
      created_at: new Date(time).toISOString(),
    });
  }
}

async function allRecords(collector: Collector, set: EvalSet): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  for (const project of new Set(set.records.map((r) => r.project))) {
    for (let offset = 0; ; offset += 500) {
      const page = await collector.get<{ items: MemoryRecord[] }>(
        `/v1/memories?namespace=${encodeURIComponent(namespaceOf(project))}&limit=500&offset=${offset}`,
      );
      out.push(...page.items);
      if (page.items.length < 500) break;
    }
  }
  return out;
}

interface Shares {
  prompts: number;
  injected: number;
  chars: number;
  echoes: number;
  self: number;
  session: number;
  noFactNoFile: number;
}

function shares(
  askings: readonly Asking[],
  byId: ReadonlyMap<string, MemoryRecord>,
  labelled: ReadonlySet<string>,
  firstEvents: ReadonlyMap<LabelledPrompt, readonly string[]>,
): Shares {
  const s: Shares = {
    prompts: askings.length,
    injected: 0,
    chars: 0,
    echoes: 0,
    self: 0,
    session: 0,
    noFactNoFile: 0,
  };
  for (const a of askings) {
    s.chars += a.context.length;
    const own = new Set(a.eventIds);
    const first = new Set(firstEvents.get(a.prompt) ?? []);
    for (const id of a.records) {
      const record = byId.get(id);
      s.injected++;
      if (!record) continue;
      const sources = record.source_event_ids;
      if (!labelled.has(id) && echoOf(record, a.prompt.prompt)) s.echoes++;
      // A record of the set that an asking's record was merged into is still the set's.
      if (!labelled.has(id) && sources.some((e) => first.has(e))) s.self++;
      if (sources.some((e) => own.has(e))) s.session++;
      if (record.facts.length === 0 && record.files_touched.length === 0) s.noFactNoFile++;
    }
  }
  return s;
}

const pct = (n: number, of: number) => (of === 0 ? '   -' : `${((100 * n) / of).toFixed(1)} %`);

function printAskings(
  set: EvalSet,
  mode: Mode,
  rows: Array<{ label: string; scores: Scores[]; shares: Shares }>,
): void {
  const tags = [...new Set(set.prompts.flatMap((p) => p.tags))];
  console.log(
    `\n${set.name} set, mode ${mode}: the context injected over HTTP (hybrid, built-in extractor)\n`,
  );
  const head = rows.map((r) => r.label.padStart(21)).join('');
  console.log(`${''.padEnd(14)}${'n'.padStart(5)}${head}${'ΔR@5'.padStart(8)}`);
  console.log(
    `${'tag'.padEnd(19)}${rows.map(() => ['R@1', 'R@5', 'MRR'].map((h) => h.padStart(7)).join('')).join('')}`,
  );
  const line = (label: string, pick: (p: LabelledPrompt) => boolean) => {
    const idx = set.prompts.map((p, i) => [pick(p), i] as const).filter(([y]) => y);
    const means = rows.map((r) => mean(idx.map(([, i]) => r.scores[i]!)));
    const cells = means
      .map((m) => [m.r1, m.r5, m.mrr].map((x) => x.toFixed(3).padStart(7)).join(''))
      .join('');
    const delta = means.length > 1 ? means.at(-1)!.r5 - means[0]!.r5 : 0;
    console.log(
      `${label.padEnd(14)}${String(idx.length).padStart(5)}${cells}${delta.toFixed(3).padStart(8)}`,
    );
  };
  for (const tag of tags) line(tag, (p) => p.tags.includes(tag));
  line('all', () => true);
  console.log(
    `\n${''.padEnd(14)}${['records', 'chars', 'echoes', 'own ask', 'session', 'no f&f'].map((h) => h.padStart(9)).join('')}   (per prompt; shares of injected records)`,
  );
  for (const r of rows) {
    const s = r.shares;
    console.log(
      `${r.label.padEnd(14)}${[
        (s.injected / s.prompts).toFixed(2),
        (s.chars / s.prompts).toFixed(0),
        pct(s.echoes, s.injected),
        pct(s.self, s.injected),
        pct(s.session, s.injected),
        pct(s.noFactNoFile, s.injected),
      ]
        .map((c) => c.padStart(9))
        .join('')}`,
    );
  }
}

/** The store after the first askings as a labelled set: the set's records plus what was made. */
function setAfter(set: EvalSet, stored: readonly MemoryRecord[], idOf: Map<string, string>) {
  const keyOf = new Map([...idOf].map(([key, id]) => [id, key]));
  const extra: LabelledRecord[] = stored
    .filter((r) => !keyOf.has(r.record_id))
    .map((r, i) => {
      const project = set.records.find((l) => namespaceOf(l.project) === r.namespace)!.project;
      return {
        key: `asked:${i}`,
        project,
        type: r.observation_type,
        title: r.title,
        summary: r.summary,
        facts: r.facts,
        concepts: r.concepts,
        files: r.files_touched,
        daysAgo: Math.max(0, (NOW - Date.parse(r.created_at)) / 86_400_000),
        ...(r.questions ? { questions: r.questions } : {}),
      };
    });
  return {
    ...set,
    name: `${set.name} after the first askings`,
    records: [...set.records, ...extra],
  };
}

async function runMode(set: EvalSet, mode: Mode, withRankers: boolean): Promise<void> {
  const collector = await startCollector();
  try {
    const idOf = await load(collector, set);
    const keyOf = new Map([...idOf].map(([key, id]) => [id, key]));
    const labelled = new Set(idOf.values());
    const run = `${mode}-${Date.now().toString(36)}`;
    // Every first asking before any turn ends: the first askings see the set alone.
    const first: Asking[] = [];
    for (const [i, p] of set.prompts.entries()) first.push(await ask(collector, p, `${run}-a${i}`));
    // The store as the first askings saw it (extraction may merge into these records later).
    const asFirstSeen = new Map((await allRecords(collector, set)).map((r) => [r.record_id, r]));
    for (const a of first) await end(collector, a, mode, asFirstSeen);
    await collector.settle();
    const second: Asking[] = [];
    for (const [i, p] of set.prompts.entries()) {
      second.push(await ask(collector, p, `${run}-b${i}`));
    }
    const stored = await allRecords(collector, set);
    const byId = new Map(stored.map((r) => [r.record_id, r]));
    const firstEvents = new Map(first.map((a) => [a.prompt, a.eventIds]));
    const scored = (askings: Asking[]) =>
      askings.map((a) =>
        score(
          a.records.map((id) => keyOf.get(id) ?? '?'),
          a.prompt.relevant,
        ),
      );
    const retired = stored.filter(
      (r) => labelled.has(r.record_id) && r.superseded_by && !labelled.has(r.superseded_by),
    ).length;
    console.log(
      `\n${set.name} set, mode ${mode}: ${stored.length - labelled.size} records made from ${set.prompts.length} first askings; ${retired} records of the set marked superseded by one of them`,
    );
    printAskings(set, mode, [
      {
        label: 'first asking',
        scores: scored(first),
        shares: shares(first, asFirstSeen, labelled, firstEvents),
      },
      {
        label: 'second asking',
        scores: scored(second),
        shares: shares(second, byId, labelled, firstEvents),
      },
    ]);
    if (values.made) {
      console.log(`\nrecords made from the first askings (${mode}):`);
      for (const r of stored.filter((r) => !labelled.has(r.record_id))) {
        console.log(`  ${r.title}\n    ${r.summary.replace(/\n/g, ' / ')}`);
      }
      const edited = stored.filter((r) => labelled.has(r.record_id) && r.updated_at);
      console.log(`records of the set changed by an asking's extraction: ${edited.length}`);
      for (const r of edited) console.log(`  ${keyOf.get(r.record_id)}: ${r.title.slice(0, 80)}`);
    }
    if (values.misses) {
      const title = (id: string) => {
        const r = byId.get(id);
        const key = keyOf.get(id);
        return `${key ?? 'new'}: ${(r?.title ?? '?').slice(0, 70)}`;
      };
      const a = scored(first);
      const b = scored(second);
      console.log(`\nprompts whose second asking lost recall@5 (${mode}):`);
      for (const [i, p] of set.prompts.entries()) {
        if (b[i]!.r5 >= a[i]!.r5) continue;
        console.log(`  ${p.prompt}\n    want ${p.relevant.join(', ')}`);
        console.log(`    first:  ${first[i]!.records.slice(0, 5).map(title).join(' | ')}`);
        console.log(`    second: ${second[i]!.records.slice(0, 5).map(title).join(' | ')}`);
      }
    }
    if (withRankers) {
      const after = setAfter(set, stored, idOf);
      printTable(after, await runSet(after, RANKERS));
    }
  } finally {
    await collector.stop();
  }
}

const { values } = parseArgs({
  options: {
    set: { type: 'string', multiple: true },
    mode: { type: 'string', multiple: true },
    rankers: { type: 'boolean' },
    misses: { type: 'boolean' },
    made: { type: 'boolean' },
  },
});
const sets = values.set ? SETS.filter((s) => values.set!.includes(s.name)) : SETS;
const modes = values.mode ? MODES.filter((m) => values.mode!.includes(m)) : MODES;
if (sets.length === 0 || modes.length === 0) {
  console.error(
    `--set is one of ${SETS.map((s) => s.name).join(', ')}; --mode one of ${MODES.join(', ')}`,
  );
  process.exit(2);
}
for (const set of sets) {
  // The rankers over the set alone, for the tables after the first askings to compare with.
  if (values.rankers) printTable(set, await runSet(set, RANKERS));
  for (const mode of modes) await runMode(set, mode, values.rankers ?? false);
}
