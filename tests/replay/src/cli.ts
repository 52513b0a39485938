/**
 * The replay report: public Claude Code sessions replayed through the installed hooks of a
 * real collector (built-in extractor unless the environment says otherwise), then what was
 * stored, per transcript and overall.
 *
 *   ./pnpmw --filter kiro-learn build            # the CLI the harness runs
 *   node tests/replay/src/fetch.ts               # the transcripts that are not committed
 *   node tests/replay/src/cli.ts [--all] [--json FILE] [--keep] [FILE.jsonl …]
 *
 * `--all` adds the fetched transcripts to the committed fixtures; files named on the command
 * line replay as one project each. `--json` writes every record and context for analysis.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { MemoryRecord } from '@kiro-learn/schema';
import { type BackFigures, backFigures, sumBack } from './back.ts';
import { contextFigures, type StoreFigures, storeFigures } from './metrics.ts';
import { type ReplayedTranscript, replay, type TranscriptSource } from './replay.ts';
import { availableSources } from './sources.ts';
import { makeWorld } from './world.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    all: { type: 'boolean' },
    json: { type: 'string' },
    keep: { type: 'boolean' },
  },
});

let sources: TranscriptSource[];
if (positionals.length > 0) {
  sources = positionals.map((file) => {
    const name = basename(file).replace(/\.jsonl$/, '');
    return { name, project: name, file };
  });
} else {
  const found = availableSources(values.all ?? false);
  sources = found.sources;
  if (found.missing.length > 0) {
    console.log(
      `not fetched (node tests/replay/src/fetch.ts): ${found.missing.map((m) => m.name).join(', ')}`,
    );
  }
}

const started = Date.now();
const world = await makeWorld({
  keep: values.keep ?? false,
  env: { KIRO_LEARN_EXTRACTOR: process.env.KIRO_LEARN_EXTRACTOR ?? 'builtin' },
});
const result = await replay(sources, {
  world,
  onTranscript: (t) =>
    console.error(
      `replayed ${t.name}: ${t.turns} turns, ${t.toolCalls} tool calls, ${t.records.length} records`,
    ),
});

const row = (name: string, f: StoreFigures, chars: number) =>
  [
    name.padEnd(26),
    String(f.turns).padStart(5),
    String(f.toolCalls).padStart(6),
    String(f.records).padStart(7),
    f.recordsPerTurn.toFixed(2).padStart(7),
    String(f.questionOnly).padStart(6),
    pct(f.noFactNoFile, f.records).padStart(8),
    String(f.shortTitles).padStart(7),
    String(f.toolNamesAsFiles).padStart(6),
    String(f.outsidePaths).padStart(7),
    String(f.nearDuplicatePairs).padStart(6),
    String(f.markdownLines).padStart(6),
    String(f.pathsInText).padStart(6),
    String(f.superseded).padStart(5),
    Math.round(chars).toString().padStart(7),
  ].join(' ');
const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(0)} %`);

console.log(
  '\nreplayed transcripts: what was stored (built-in extractor unless KIRO_LEARN_EXTRACTOR says otherwise)\n',
);
console.log(
  [
    'transcript'.padEnd(26),
    'turns'.padStart(5),
    'tools'.padStart(6),
    'records'.padStart(7),
    'per turn'.padStart(7),
    'q-only'.padStart(6),
    'no f&f'.padStart(8),
    '≤3 w'.padStart(7),
    'tool f'.padStart(6),
    'outside'.padStart(7),
    'n-dup'.padStart(6),
    'md ln'.padStart(6),
    'abs tx'.padStart(6),
    'supd'.padStart(5),
    'ctx ch'.padStart(7),
  ].join(' '),
);
const figuresOf = (t: ReplayedTranscript) =>
  storeFigures(t.records, {
    turns: t.turns,
    toolCalls: t.toolCalls,
    prompts: t.prompts,
    toolNames: result.toolNames,
  });
for (const t of result.transcripts) {
  console.log(row(t.name, figuresOf(t), contextFigures(t.contexts).meanChars));
}
const allRecords: MemoryRecord[] = result.transcripts.flatMap((t) => t.records);
const overall = storeFigures(allRecords, {
  turns: result.transcripts.reduce((a, t) => a + t.turns, 0),
  toolCalls: result.transcripts.reduce((a, t) => a + t.toolCalls, 0),
  prompts: result.transcripts.flatMap((t) => t.prompts),
  toolNames: result.toolNames,
});
// Near duplicates across a project's sessions count too: measured over the whole store.
overall.nearDuplicatePairs = [...result.store.values()]
  .map(
    (records) =>
      storeFigures(records, { turns: 0, toolCalls: 0, prompts: [], toolNames: result.toolNames })
        .nearDuplicatePairs,
  )
  .reduce((a, b) => a + b, 0);
// Supersessions as the store ends (a later session may retire an earlier one's record).
overall.superseded = [...result.store.values()]
  .flat()
  .filter((r) => r.superseded_by !== undefined).length;
// Question-only is judged against each record's own session.
overall.questionOnly = result.transcripts.reduce((a, t) => a + figuresOf(t).questionOnly, 0);
console.log(
  row(
    `all (${result.transcripts.length} sessions, ${result.store.size} projects)`,
    overall,
    contextFigures(result.transcripts.flatMap((t) => t.contexts)).meanChars,
  ),
);
const failures = result.transcripts.flatMap((t) => t.hookFailures);
console.log(
  `\ncolumns: turns (prompts), tools (tool calls), records stored, records per turn, q-only (records that only repeat the session's prompts), no f&f (records with no fact and no file), ≤3 w (titles of three words or fewer), tool f (records listing a tool name as a file), outside (records listing an absolute path), n-dup (near-duplicate pairs, word Jaccard ≥ 0.8, whole store), md ln (heading, table or code-fence lines in stored summaries and facts), abs tx (records with an absolute path in their title, summary or facts), supd (records superseded; overall: in the final store), ctx ch (mean characters injected per prompt)`,
);
console.log(
  `hook processes that failed or wrote to stderr: ${failures.length}; took ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
// What came back: per transcript, then overall.
const everything = new Map(
  [...result.store.values()].flatMap((records) => records.map((r) => [r.record_id, r] as const)),
);
const back: Array<[string, BackFigures]> = [];
for (const [i, t] of result.transcripts.entries()) {
  const earlier = result.transcripts
    .slice(0, i)
    .filter((e) => e.project === t.project)
    .flatMap((e) => e.records);
  back.push([t.name, await backFigures(world, sources[i]!, t, earlier, everything)]);
}
world.close();
const share = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(0)} %`);
const backRow = (name: string, f: BackFigures) =>
  [
    name.padEnd(26),
    String(f.prompts).padStart(5),
    String(f.withContext).padStart(5),
    Math.round(f.meanChars).toString().padStart(6),
    String(f.maxChars).padStart(6),
    `${f.informationFreeWithContext}/${f.informationFree}`.padStart(7),
    String(f.injected).padStart(6),
    share(f.currentSessionInWindow, f.injected).padStart(7),
    share(f.currentSessionCompacted, f.injected).padStart(7),
    share(f.echoes, f.injected).padStart(6),
    share(f.noFactNoFile, f.injected).padStart(7),
    `${f.filePromptsFound}/${f.filePrompts}`.padStart(7),
    `${f.filePromptsHeld}/${f.filePrompts}`.padStart(7),
    Math.round(f.sessionStartChars).toString().padStart(7),
  ].join(' ');
console.log('\nreplayed transcripts: what came back to each prompt\n');
console.log(
  [
    'transcript'.padEnd(26),
    'asked'.padStart(5),
    'got'.padStart(5),
    'chars'.padStart(6),
    'max'.padStart(6),
    'nil-ctx'.padStart(7),
    'inj'.padStart(6),
    'own-win'.padStart(7),
    'own-old'.padStart(7),
    'echo'.padStart(6),
    'no f&f'.padStart(7),
    'files'.padStart(7),
    'held'.padStart(7),
    'start'.padStart(7),
  ].join(' '),
);
for (const [name, f] of back) console.log(backRow(name, f));
console.log(backRow(`all (${back.length} sessions)`, sumBack(back.map(([, f]) => f))));
console.log(
  `\ncolumns: asked (prompts), got (prompts given any context), chars (mean characters injected per prompt), max (most for one prompt), nil-ctx (information-free prompts given context / such prompts), inj (records injected), own-win (share of them made from the session's own events still in the agent's window: after its last compaction), own-old (… from before a compaction), echo (records saying fewer than three words the prompt did not), no f&f (records with no fact and no file), files (prompts whose turn touched files an earlier session's record covers that got such a record in their first five / such prompts), held (… that had such a record: in their first five, or given to an earlier prompt of the session and not compacted away since), start (characters the session start printed; all: mean per session)`,
);
if (values.json) {
  writeFileSync(
    values.json,
    JSON.stringify(
      {
        transcripts: result.transcripts,
        store: Object.fromEntries(result.store),
      },
      null,
      1,
    ),
  );
  console.log(`records and contexts written to ${values.json}`);
}
