// Opens a kiro-learn database directly (no collector) and searches one project's memory.
import { buildNamespace, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const storage = await openSqliteStorage({ path: '/tmp/kiro-learn-example/kiro-learn.db' });
const namespace = buildNamespace('alice', 'payments-api');

await storage.putRecord(
  newRecord({
    namespace,
    strategy: 'example',
    title: 'Stripe webhooks need the raw request body',
    summary: 'express.json() re-serialized the body, so signature verification failed.',
    facts: ['Use express.raw({ type: "application/json" }) on the webhook route'],
    concepts: ['stripe', 'webhooks'],
    files_touched: ['src/webhooks/stripe.ts'],
  }),
);

const hits = await storage.searchRecords({
  namespace,
  query: 'why do webhook signatures fail?',
  limit: 5,
});
for (const hit of hits) console.log(hit.score.toFixed(2), hit.record.title);
await storage.close();
