/**
 * The update-chain eval: subjects stated again and again over time (CHAINS), stored in time
 * order as extraction stores them (each new record curated against the project's current
 * ones: supersessions linked without a model), then asked for the current state, what
 * changed recently, and an old state, by every ranker.
 *
 *   ./pnpmw --filter @kiro-learn/retrieval eval:chains [written|turns]
 *
 * KIRO_LEARN_EVAL_MISSED=1 lists the links the rules missed; KIRO_LEARN_EVAL_SHOW=1 the
 * current-state prompts whose current record is not above the records it superseded.
 *
 * Two sets: CHAINS, records written as an extractor would write them; and TURN_CHAINS
 * (chains/turns.ts, held out from the rules), turns — request, tool calls, closing message —
 * that go through the built-in extractor first, as a user of the built-in extractor gets them.
 *
 * Prints per set how well the supersession rules found the chains' links, and per ranker and
 * prompt kind: which record of the chain ranks first (the current one, an older one, none),
 * the share of current-state prompts where the current record ranks above every record it
 * superseded, and recall@1 / recall@5 of the record each prompt asks for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinExtractor, curateRecords } from '@kiro-learn/extractor';
import { type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { CHAINS, DISTRACTORS } from './chains/data.ts';
import { turnEvents } from './chains/events.ts';
import { TURN_CHAINS, TURN_DISTRACTORS } from './chains/turns.ts';
import { RANKERS } from './rankers.ts';
import { NOW, namespaceOf } from './sets.ts';

const DAY = 86_400_000;

function stored(
  project: string,
  fields: { title: string; summary: string; facts?: string[]; files?: string[]; daysAgo: number },
): MemoryRecord {
  const time = NOW - fields.daysAgo * DAY;
  return {
    record_id: newRecordId(time),
    namespace: namespaceOf(project),
    strategy: 'eval',
    title: fields.title,
    summary: fields.summary,
    facts: fields.facts ?? [],
    concepts: [],
    files_touched: fields.files ?? [],
    observation_type: 'decision',
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
  };
}

type Kind = 'current' | 'recent' | 'old';
interface Asked {
  kind: Kind;
  chain: number;
  prompt: string;
  /** The record asked for. */
  target: string;
}

const pct = (n: number, of: number) => (of === 0 ? '  -  ' : (n / of).toFixed(3));

/** A chain as stored: its records' ids, oldest first, and the prompts about it. */
interface StoredChain {
  ids: string[];
  current: string;
  recent: string;
  old: [string, number];
}

/** Stores records in time order, each curated against the project's current records. */
async function curateInOrder(storage: SqliteStorage, all: MemoryRecord[]): Promise<void> {
  all.sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const record of all) {
    const existing = (
      await storage.listRecords({ namespace: record.namespace, current: true, limit: 500 })
    ).items;
    const curated = curateRecords({ fresh: [record], existing, now: record.created_at });
    for (const r of curated.records) await storage.putRecord(r);
  }
}

/** The written-records set: each step one record, stored and curated. */
async function writtenSet(
  storage: SqliteStorage,
): Promise<{ chains: StoredChain[]; others: number }> {
  const chains: StoredChain[] = [];
  const all: MemoryRecord[] = [];
  for (const chain of CHAINS) {
    const ids: string[] = [];
    for (const step of chain.steps) {
      const record = stored(chain.project, step);
      ids.push(record.record_id);
      all.push(record);
    }
    chains.push({ ids, current: chain.current, recent: chain.recent, old: chain.old });
  }
  for (const d of DISTRACTORS) all.push(stored(d.project, d));
  await curateInOrder(storage, all);
  return { chains, others: DISTRACTORS.length };
}

/**
 * The turn set: each step a turn through the built-in extractor (in time order with the
 * other turns of its project, each curated as it arrives). A chain step's record is the
 * one its turn produced; a turn that produced none, or whose record was merged into an
 * older one, leaves the step pointing at what holds it.
 */
async function turnSet(storage: SqliteStorage): Promise<{ chains: StoredChain[]; others: number }> {
  const extractor = createBuiltinExtractor();
  type Turn = {
    project: string;
    step: (typeof TURN_CHAINS)[number]['steps'][number];
    chain?: number;
  };
  const turns: Turn[] = [
    ...TURN_CHAINS.flatMap((chain, c) =>
      chain.steps.map((step) => ({ project: chain.project, step, chain: c })),
    ),
    ...TURN_DISTRACTORS.map((d) => ({ project: d.project, step: d })),
  ].sort((a, b) => b.step.daysAgo - a.step.daysAgo);
  const ids: string[][] = TURN_CHAINS.map(() => []);
  let session = 0;
  for (const turn of turns) {
    const namespace = namespaceOf(turn.project);
    const events = turnEvents(
      namespace,
      turn.project,
      `s${session++}`,
      turn.step,
      NOW - turn.step.daysAgo * DAY,
    );
    const { records } = await extractor.extract({ namespace, events, preceding: [] });
    const existing = (await storage.listRecords({ namespace, current: true, limit: 500 })).items;
    const curated = curateRecords({ fresh: records, existing, now: events.at(-1)!.valid_time });
    for (const r of curated.records) await storage.putRecord(r);
    if (turn.chain === undefined) continue;
    // The turn's own record, or the one it was merged into.
    const own = records[0]?.record_id;
    const into = curated.merged.find((m) => m.from === own)?.into;
    const id = into ?? own;
    if (id !== undefined) ids[turn.chain]!.push(id);
  }
  const chains = TURN_CHAINS.map((chain, c) => ({
    ids: [...new Set(ids[c])],
    current: chain.current,
    recent: chain.recent,
    old: chain.old,
  }));
  return { chains, others: TURN_DISTRACTORS.length };
}

async function report(
  name: string,
  build: (storage: SqliteStorage) => Promise<{ chains: StoredChain[]; others: number }>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-chains-'));
  const storage = await openSqliteStorage({ path: join(dir, 'chains.db') });
  try {
    const { chains, others } = await build(storage);
    const chainIds = chains.map((c) => c.ids);
    const all = (await storage.listRecords({ limit: 5000 })).items;
    // How well the rules found the links.
    const truth = new Map<string, string>();
    for (const ids of chainIds)
      for (let i = 0; i + 1 < ids.length; i++) truth.set(ids[i]!, ids[i + 1]!);
    const records = await storage.getRecords(all.map((r) => r.record_id));
    const links = records.filter((r) => r.superseded_by !== undefined);
    const right = links.filter((r) => truth.get(r.record_id) === r.superseded_by).length;
    // A link to a later record of the same chain (skipping one) is right in kind too.
    const chainOf = new Map(chainIds.flatMap((ids, c) => ids.map((id) => [id, c] as const)));
    const sameChain = links.filter(
      (r) =>
        chainOf.get(r.record_id) !== undefined &&
        chainOf.get(r.record_id) === chainOf.get(r.superseded_by!),
    ).length;
    const chained = chainIds.reduce((n, ids) => n + ids.length, 0);
    console.log(
      `\n== ${name}: ${chains.length} chains (${chained} records, ${Math.min(...chainIds.map((ids) => ids.length))}–${Math.max(...chainIds.map((ids) => ids.length))} per chain) and ${others} other ${name.startsWith('turns') ? 'turns' : 'records'}; ${records.length} records stored`,
    );
    console.log(
      `supersession rules: ${links.length} links for ${truth.size} true ones; exact ${right} (recall ${pct(right, truth.size)}), within the right chain ${sameChain} (precision ${pct(sameChain, links.length)})`,
    );
    const wrong = links.filter(
      (r) =>
        chainOf.get(r.record_id) === undefined ||
        chainOf.get(r.record_id) !== chainOf.get(r.superseded_by!),
    );
    for (const r of wrong.slice(0, 8)) {
      const by = records.find((x) => x.record_id === r.superseded_by);
      console.log(
        `  wrong link: "${r.title.slice(0, 60)}" → "${by?.title.slice(0, 60)}" (${r.superseded_reason})`,
      );
    }

    if (process.env.KIRO_LEARN_EVAL_MISSED) {
      for (const [older, newer] of truth) {
        const o = records.find((r) => r.record_id === older)!;
        if (o.superseded_by === newer) continue;
        const n = records.find((r) => r.record_id === newer)!;
        console.log(
          `  missed: ${JSON.stringify([o.title, o.summary, o.facts, o.files_touched])}\n      by: ${JSON.stringify([n.title, n.summary, n.facts, n.files_touched])}`,
        );
      }
    }
    const asked: Asked[] = chains.flatMap((chain, c) => {
      const ids = chain.ids;
      const head = ids.at(-1)!;
      return [
        { kind: 'current' as const, chain: c, prompt: chain.current, target: head },
        { kind: 'recent' as const, chain: c, prompt: chain.recent, target: head },
        {
          kind: 'old' as const,
          chain: c,
          prompt: chain.old[0],
          target: ids[Math.min(chain.old[1], ids.length - 1)]!,
        },
      ];
    });
    console.log(
      `${asked.length} prompts: ${chains.length} each asking for the current state, the latest change, an old state\n`,
    );
    console.log(
      'ranker    kind     n   first: current  older   none   current above superseded    R@1    R@5',
    );
    for (const factory of RANKERS) {
      const rank = await factory.setup({ storage, records, now: NOW });
      for (const kind of ['current', 'recent', 'old'] as const) {
        const rows = asked.filter((a) => a.kind === kind);
        let firstCurrent = 0;
        let firstOlder = 0;
        let above = 0;
        let r1 = 0;
        let r5 = 0;
        for (const a of rows) {
          const ids = chainIds[a.chain]!;
          const head = ids.at(-1)!;
          const ranked = await rank({
            namespace: records.find((r) => r.record_id === a.target)!.namespace,
            prompt: a.prompt,
          });
          const first = ranked.find((id) => ids.includes(id));
          if (first === head) firstCurrent++;
          else if (first !== undefined) firstOlder++;
          const at = ranked.indexOf(head);
          if (
            at >= 0 &&
            ids.slice(0, -1).every((id) => !ranked.includes(id) || ranked.indexOf(id) > at)
          )
            above++;
          else if (kind === 'current' && process.env.KIRO_LEARN_EVAL_SHOW)
            console.log(
              `  ${factory.name} current below: ${a.prompt} → ${ranked
                .slice(0, 3)
                .map((id) => records.find((r) => r.record_id === id)?.title.slice(0, 50))
                .join(' | ')}`,
            );
          if (ranked[0] === a.target) r1++;
          if (ranked.slice(0, 5).includes(a.target)) r5++;
        }
        console.log(
          [
            factory.name.padEnd(9),
            kind.padEnd(7),
            String(rows.length).padStart(3),
            String(firstCurrent).padStart(15),
            String(firstOlder).padStart(6),
            String(rows.length - firstCurrent - firstOlder).padStart(6),
            (kind === 'old' ? '-' : pct(above, rows.length)).padStart(25),
            pct(r1, rows.length).padStart(6),
            pct(r5, rows.length).padStart(6),
          ].join(' '),
        );
      }
    }
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only !== 'turns') await report('written records', writtenSet);
  if (only !== 'written') await report('turns through the built-in extractor (held out)', turnSet);
  console.log(
    '\nfirst: which record of the asked chain ranks first among the chain (none: no record of the chain in the top 10);',
  );
  console.log(
    'current above superseded: the current record is in the top 10 and above every older record of its chain that is there;',
  );
  console.log(
    'R@1, R@5: the record the prompt asks for (the current one; for `old`, the older state asked for).',
  );
  console.log(
    'targets: current above superseded ≥ 0.95 for current-state prompts; old state in the top 5 ≥ 0.9.',
  );
}

await main();
