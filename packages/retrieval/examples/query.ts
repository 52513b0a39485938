// Query a kiro-learn database directly, without the collector: open the file, build a
// retriever over it, and print the context an agent would get for a prompt.
// Run: node examples/query.ts [database] [prompt]
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createRetriever } from '@kiro-learn/retrieval';
import { buildNamespace } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const path = process.argv[2] ?? join(homedir(), '.kiro-learn', 'kiro-learn.db');
const prompt = process.argv[3] ?? 'why do the webhook signatures fail?';

const storage = await openSqliteStorage({ path });
try {
  const retriever = createRetriever({ storage, contextTokens: 1000, log: false });
  const namespace = buildNamespace('alice', 'payments-api');

  // What the prompt hook injects: ranked, within 500 ms and 1,000 tokens.
  const result = await retriever.retrieve({ namespace, prompt, sessionId: 'example' });
  console.log(result.context || '(nothing relevant)');
  console.log(`${result.records.length} records in ${result.latencyMs.toFixed(1)} ms`);

  // The same ranking without budgets, for a search box.
  for (const hit of await retriever.search({ namespace, query: prompt, limit: 5 })) {
    console.log(hit.score.toFixed(3), hit.record.title);
  }
} finally {
  await storage.close();
}
