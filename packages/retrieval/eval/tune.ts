// Tuning aid for the hybrid ranker (`node eval/tune.ts`): every setting below on every
// labelled set at once, one line per setting with R@1, R@5 and MRR per set, the worst R@5
// loss against lexical on any tag, and the paraphrase tag of the paraphrase set. Prints;
// asserts nothing. Tune on the whole evaluation, never on one prompt or one set.
// `--grid fusion` (default) or `--grid questions`.
import {
  createRetriever,
  DEFAULT_HYBRID_WEIGHTS,
  embeddingText,
  type HybridWeights,
} from '@kiro-learn/retrieval';
import type { MemoryRecord } from '@kiro-learn/schema';
import type { ColumnWeights } from '@kiro-learn/storage';
import { mean } from './metrics.ts';
import { embedSet, lexical, type RankerFactory } from './rankers.ts';
import { SETS } from './sets.ts';
import { runSet } from './table.ts';

interface Setting {
  hybrid?: Partial<HybridWeights>;
  columns?: Partial<ColumnWeights>;
  /** The text embedded for each record (default embeddingText). */
  text?: (record: MemoryRecord) => string;
  label?: string;
}

const withoutQuestions = (record: MemoryRecord) =>
  embeddingText({ ...record, questions: undefined } as MemoryRecord);

const grids: Record<string, Setting[]> = {
  questions: [0, 0.5, 1, 2, 3].flatMap((questions) => [
    { columns: { questions }, text: withoutQuestions, label: `q=${questions} embed-` },
    { columns: { questions }, label: `q=${questions} embed+` },
  ]),
  fusion: [0, 1, 3].flatMap((rareTermSlots) =>
    [0, 8, 14, 20].map((shortRecordWords) => ({
      hybrid: { rareTermSlots, shortRecordWords },
    })),
  ),
  share: [0.2, 0.3, 0.4].flatMap((semanticMin) =>
    [0.85, 1].flatMap((semanticMax) =>
      [0.15, 0.2].flatMap((minSimilarity) =>
        [0.5, 0.6].map((fullSimilarity) => ({
          hybrid: { semanticMin, semanticMax, minSimilarity, fullSimilarity },
        })),
      ),
    ),
  ),
};

const gridName = process.argv.includes('--grid')
  ? process.argv[process.argv.indexOf('--grid') + 1]!
  : 'fusion';
const grid = grids[gridName];
if (!grid) {
  console.error(`--grid: one of ${Object.keys(grids).join(', ')}`);
  process.exit(2);
}

const nameOf = (s: Setting) =>
  s.label ?? JSON.stringify({ ...s.hybrid, ...s.columns }).replaceAll('"', '');

const queries = new Map<string, Promise<Float32Array[]>>();
const weighted = (setting: Setting): RankerFactory => ({
  name: nameOf(setting),
  async setup(context) {
    const model = await embedSet(context, setting.text);
    // Each prompt is embedded once for the whole grid.
    const embedder = {
      modelId: model.modelId,
      embed: async (texts: readonly string[]) => {
        const key = texts.join('\u0000');
        let hit = queries.get(key);
        if (!hit) {
          hit = model.embed(texts, { purpose: 'query' });
          queries.set(key, hit);
        }
        return hit;
      },
    };
    const retriever = createRetriever({
      storage: context.storage,
      now: () => context.now,
      log: false,
      budgetMs: 60_000,
      semantic: { embedder },
      hybridWeights: { ...DEFAULT_HYBRID_WEIGHTS, ...setting.hybrid },
      ...(setting.columns ? { columnWeights: setting.columns } : {}),
    });
    return async ({ namespace, prompt }) =>
      (await retriever.search({ namespace, query: prompt, limit: 10 })).map(
        (hit) => hit.record.record_id,
      );
  },
});

const perSet = [];
for (const set of SETS) {
  perSet.push({ set, results: await runSet(set, [lexical, ...grid.map(weighted)]) });
}
for (const name of grid.map(nameOf)) {
  const cells: string[] = [];
  let worst = 0;
  let all = 0;
  let paraphrase = 0;
  for (const { set, results } of perSet) {
    const rows = results.get(name)!;
    const base = results.get('lexical')!;
    const m = mean(rows.map((r) => r.scores));
    all += m.r5 + m.mrr;
    cells.push(`${set.name} ${m.r1.toFixed(3)} ${m.r5.toFixed(3)} ${m.mrr.toFixed(3)}`);
    for (const tag of new Set(set.prompts.flatMap((p) => p.tags))) {
      const pick = (rs: typeof rows) =>
        mean(rs.filter((r) => r.prompt.tags.includes(tag)).map((r) => r.scores)).r5;
      worst = Math.max(worst, pick(base) - pick(rows));
      if (set.name === 'paraphrase' && tag === 'paraphrase') paraphrase = pick(rows);
    }
  }
  console.log(
    `${name.padEnd(64)} ${cells.join(' | ')} | para ${paraphrase.toFixed(3)} | worst tag loss ${worst.toFixed(3)} | sum ${all.toFixed(3)}`,
  );
}
