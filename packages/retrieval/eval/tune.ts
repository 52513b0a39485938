// Tuning aid for the hybrid ranker: grid over HybridWeights on the labelled set, printing
// recall@5 / MRR overall and per prompt kind. `node eval/tune.ts`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEmbedder } from '@kiro-learn/embeddings';
import { createRetriever, embeddingText, type HybridWeights } from '@kiro-learn/retrieval';
import { buildNamespace, type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { PROMPTS as LABELLED } from './prompts.ts';
import { RECORDS } from './records.ts';

const groupOf = new Map(RECORDS.map((r) => [r.key, r.restates ?? r.key]));
const PROMPTS = LABELLED.map((p) => {
  const groups = new Set(p.relevant.map((key) => groupOf.get(key)));
  return {
    ...p,
    relevant: RECORDS.filter((r) => groups.has(groupOf.get(r.key))).map((r) => r.key),
  };
});
const NOW = Date.parse('2026-11-01T12:00:00Z');
const ns = (project: string) => buildNamespace('eval', project);
const dir = mkdtempSync(join(tmpdir(), 'kl-tune-'));
const storage = await openSqliteStorage({ path: join(dir, 'e.db') });
const embedder = await loadEmbedder();
const keyOf = new Map<string, string>();
const records: MemoryRecord[] = RECORDS.map((r) => {
  const time = NOW - r.daysAgo * 86_400_000;
  const record: MemoryRecord = {
    record_id: newRecordId(time),
    namespace: ns(r.project),
    strategy: 'eval',
    title: r.title,
    summary: r.summary,
    facts: r.facts,
    concepts: r.concepts,
    files_touched: r.files,
    observation_type: r.type,
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
  };
  keyOf.set(record.record_id, r.key);
  return record;
});
for (const r of records) await storage.putRecord(r);
const vectors = await embedder.embed(records.map(embeddingText));
await storage.putVectors(
  embedder.modelId,
  records.map((r, i) => ({ recordId: r.record_id, vector: vectors[i]! })),
);

type Mode = 'lexical' | 'semantic' | Partial<HybridWeights>;
async function run(mode: Mode) {
  const retriever = createRetriever({
    storage,
    now: () => NOW,
    log: false,
    budgetMs: 60_000,
    ...(mode === 'lexical' ? {} : { semantic: { embedder } }),
    ...(mode === 'semantic'
      ? {
          hybridWeights: { semanticMin: 1, semanticMax: 1 },
          rankWeights: { file: 0, concept: 0, recency: 0 },
        }
      : typeof mode === 'object'
        ? { hybridWeights: mode }
        : {}),
  });
  const rows: Array<{ kind: string; r5: number; mrr: number; r1: number }> = [];
  for (const p of PROMPTS) {
    const hits = await retriever.search({ namespace: ns(p.project), query: p.prompt, limit: 10 });
    const ranked = hits.map((h) => keyOf.get(h.record.record_id)!);
    const rel = p.relevant;
    const recall = (k: number) =>
      new Set(ranked.slice(0, k).filter((key) => rel.includes(key))).size / Math.min(k, rel.length);
    const first = ranked.findIndex((key) => rel.includes(key));
    rows.push({ kind: p.kind, r1: recall(1), r5: recall(5), mrr: first < 0 ? 0 : 1 / (first + 1) });
  }
  const m = (xs: typeof rows) => ({
    r1: xs.reduce((a, x) => a + x.r1, 0) / xs.length,
    r5: xs.reduce((a, x) => a + x.r5, 0) / xs.length,
    mrr: xs.reduce((a, x) => a + x.mrr, 0) / xs.length,
  });
  const kinds = [...new Set(rows.map((r) => r.kind))];
  const all = m(rows);
  const cells = kinds.map((k) => {
    const s = m(rows.filter((r) => r.kind === k));
    return `${k.slice(0, 5)} ${s.r5.toFixed(2)}/${s.mrr.toFixed(2)}`;
  });
  console.log(
    `${JSON.stringify(mode).padEnd(80)} all r1 ${all.r1.toFixed(3)} r5 ${all.r5.toFixed(3)} mrr ${all.mrr.toFixed(3)} | ${cells.join(' | ')}`,
  );
}

const modes: Mode[] = ['lexical', 'semantic', {}];
const grid = process.argv.includes('--grid');
if (grid) {
  for (const semanticMin of [0.2, 0.35, 0.5])
    for (const semanticMax of [0.7, 0.85, 1])
      for (const minSimilarity of [0.1, 0.2, 0.3])
        for (const fullSimilarity of [0.6, 0.8])
          modes.push({ semanticMin, semanticMax, minSimilarity, fullSimilarity });
}
for (const mode of modes) await run(mode);
await embedder.close();
await storage.close();
rmSync(dir, { recursive: true, force: true });
