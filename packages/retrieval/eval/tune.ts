// Tuning aid for the hybrid ranker (`node eval/tune.ts`): a grid over HybridWeights on
// every labelled set at once, one line per setting with R@5 and MRR per set and the worst
// R@5 loss against lexical on any tag. Prints; asserts nothing. Tune on the whole
// evaluation, never on one prompt.
import { createRetriever, type HybridWeights } from '@kiro-learn/retrieval';
import { mean } from './metrics.ts';
import { embedSet, lexical, type RankerFactory, semantic } from './rankers.ts';
import { SETS } from './sets.ts';
import { runSet } from './table.ts';

const grid: Array<Partial<HybridWeights>> = [];
for (const semanticMin of [0.1, 0.2, 0.3])
  for (const semanticMax of [0.85, 0.95, 1])
    for (const minSimilarity of [0.15, 0.25, 0.35])
      for (const fullSimilarity of [0.5, 0.6, 0.7])
        grid.push({ semanticMin, semanticMax, minSimilarity, fullSimilarity });

const queries = new Map<string, Promise<Float32Array[]>>();
const weighted = (weights: Partial<HybridWeights>): RankerFactory => ({
  name: JSON.stringify(weights),
  async setup(context) {
    const model = await embedSet(context);
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
      hybridWeights: weights,
    });
    return async ({ namespace, prompt }) =>
      (await retriever.search({ namespace, query: prompt, limit: 10 })).map(
        (hit) => hit.record.record_id,
      );
  },
});

const perSet = [];
for (const set of SETS) {
  perSet.push({ set, results: await runSet(set, [lexical, semantic, ...grid.map(weighted)]) });
}
for (const name of ['semantic', ...grid.map((w) => JSON.stringify(w))]) {
  const cells: string[] = [];
  let worst = 0;
  for (const { set, results } of perSet) {
    const rows = results.get(name)!;
    const base = results.get('lexical')!;
    const m = mean(rows.map((r) => r.scores));
    cells.push(`${set.name} R@5 ${m.r5.toFixed(3)} MRR ${m.mrr.toFixed(3)}`);
    for (const tag of new Set(set.prompts.flatMap((p) => p.tags))) {
      const pick = (rs: typeof rows) =>
        mean(rs.filter((r) => r.prompt.tags.includes(tag)).map((r) => r.scores)).r5;
      worst = Math.max(worst, pick(base) - pick(rows));
    }
  }
  console.log(`${name.padEnd(84)} ${cells.join(' | ')} | worst tag loss ${worst.toFixed(3)}`);
}
