// examples/open-and-search.ts: a database of your own, one record written, then found.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNamespace, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';

const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-example-'));
const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
const namespace = buildNamespace('alice', 'payments-api');

// newRecord fills in what a hand-written record does not need: id, times, empty lists.
await storage.putRecord(
  newRecord({
    namespace,
    title: 'Stripe webhooks need the raw request body',
    summary: 'express.json() re-serialized the body, so signature verification failed.',
    facts: ['Use express.raw({ type: "application/json" }) on the webhook route'],
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
if (hits[0]?.record.title !== 'Stripe webhooks need the raw request body') process.exit(1);
