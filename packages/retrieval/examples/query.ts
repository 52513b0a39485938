// examples/query.ts: the context an agent gets for a prompt, from a database file, without the collector.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetriever } from '@kiro-learn/retrieval';
import { buildNamespace, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

// A database of its own (the collector's is ~/.kiro-learn/kiro-learn.db), with one memory.
const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-example-'));
const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
const namespace = buildNamespace('alice', 'payments-api');
await storage.putRecord(
  newRecord({
    namespace,
    title: 'Stripe webhook signatures fail on a re-serialized body',
    summary: 'express.json() re-serialized the body; verify against express.raw() instead.',
    files_touched: ['src/webhooks/stripe.ts'],
  }),
);

// A first query in a fresh process also opens the search index (the collector does that at
// start-up), so this one-shot script allows more than the default 500 ms budget.
const retriever = createRetriever({ storage, contextTokens: 1000, budgetMs: 5000, log: false });
const prompt = 'why do the webhook signatures fail?';
// What the prompt hook injects: ranked, within the retrieval budget and 1,000 tokens.
const result = await retriever.retrieve({ namespace, prompt, sessionId: 'example' });
console.log(result.context || '(nothing relevant)');
console.log(`${result.records.length} records in ${result.latencyMs.toFixed(1)} ms`);
// The same ranking without budgets, for a search box.
for (const hit of await retriever.search({ namespace, query: prompt, limit: 5 })) {
  console.log(hit.score.toFixed(3), hit.record.title);
}
await storage.close();
if (!result.context.includes('Stripe webhook signatures fail')) process.exit(1);
