/**
 * The update-chain eval: subjects stated again and again over time (CHAINS), stored in time
 * order as extraction stores them (each new record curated against the project's current
 * ones: supersessions linked without a model), then asked for the current state, what
 * changed recently, and an old state, by every ranker.
 *
 *   ./pnpmw --filter @kiro-learn/retrieval eval:chains
 *
 * Prints how well the supersession rules found the chains' links, and per ranker and prompt
 * kind: which record of the chain ranks first (the current one, an older one, none), the
 * share of current-state prompts where the current record ranks above every record it
 * superseded, and recall@1 / recall@5 of the record each prompt asks for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { curateRecords } from '@kiro-learn/extractor';
import { type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { CHAINS, DISTRACTORS } from './chains/data.ts';
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-chains-'));
  const storage = await openSqliteStorage({ path: join(dir, 'chains.db') });
  try {
    const chainIds: string[][] = [];
    const all: MemoryRecord[] = [];
    for (const chain of CHAINS) {
      const ids: string[] = [];
      for (const step of chain.steps) {
        const record = stored(chain.project, step);
        ids.push(record.record_id);
        all.push(record);
      }
      chainIds.push(ids);
    }
    for (const d of DISTRACTORS) all.push(stored(d.project, d));
    // Stored in time order, each curated against the project's current records, as the
    // extraction pipeline does.
    all.sort((a, b) => a.created_at.localeCompare(b.created_at));
    for (const record of all) {
      const existing = (
        await storage.listRecords({ namespace: record.namespace, current: true, limit: 500 })
      ).items;
      const curated = curateRecords({ fresh: [record], existing, now: record.created_at });
      for (const r of curated.records) await storage.putRecord(r);
    }

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
    console.log(
      `update-chain eval: ${CHAINS.length} chains (${all.length - DISTRACTORS.length} records, 2–4 per chain) and ${DISTRACTORS.length} other records in 3 projects`,
    );
    console.log(
      `supersession rules: ${links.length} links for ${truth.size} true ones; exact ${right} (recall ${pct(right, truth.size)}), within the right chain ${sameChain} (precision ${pct(sameChain, links.length)})`,
    );

    const asked: Asked[] = CHAINS.flatMap((chain, c) => {
      const ids = chainIds[c]!;
      const head = ids.at(-1)!;
      return [
        { kind: 'current' as const, chain: c, prompt: chain.current, target: head },
        { kind: 'recent' as const, chain: c, prompt: chain.recent, target: head },
        { kind: 'old' as const, chain: c, prompt: chain.old[0], target: ids[chain.old[1]]! },
      ];
    });
    console.log(
      `${asked.length} prompts: ${CHAINS.length} each asking for the current state, the latest change, an old state\n`,
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
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
