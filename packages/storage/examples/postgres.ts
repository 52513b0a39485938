// Opens kiro-learn's PostgreSQL backend (a team's memory server) and counts what is stored.
import { openPostgresStorage } from '@kiro-learn/storage/postgres';

const storage = await openPostgresStorage({
  url: process.env.KIRO_LEARN_STORAGE_URL ?? 'postgres://kiro:secret@db.internal:5432/kiro',
  statementTimeoutMs: 5000,
});
const health = await storage.health();
console.log(`PostgreSQL ${health.version}, ${health.latencyMs.toFixed(1)} ms`);
console.log((await storage.stats()).memories.total, 'memory records');
await storage.close();
