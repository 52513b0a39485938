import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { event, NS, openTemp, record, tempDir } from '../../test/helpers.js';
import { forgetInCopy, openSqliteStorage } from '../index.js';

const OTHER = '/actor/alice/project/billing/';
const has = (path: string, needle: string) => readFileSync(path).includes(Buffer.from(needle));

/** A database holding a secret in an event and a record of NS, beside plenty of OTHER; backed up. */
async function backedUp(secret: string, projectPath = '/src/app') {
  const storage = await openTemp();
  const source = {
    surface: 'kiro-cli' as const,
    version: '1',
    client_id: 't',
    project_path: projectPath,
  };
  const e = event({ body: { type: 'text', content: `key ${secret}` }, source });
  await storage.putEvent(e, { pending: true });
  await storage.putRecord(
    record({ summary: `The key ${secret} leaked`, source_event_ids: [e.event_id] }),
  );
  for (let i = 0; i < 100; i++) {
    await storage.putEvent(event({ namespace: OTHER }));
    if (i % 5 === 0) await storage.putRecord(record({ namespace: OTHER, summary: `kept ${i}` }));
  }
  const copy = join(tempDir(), 'backups', 'daily-20260101T000000Z.db');
  await storage.backup(copy);
  await storage.close();
  return { copy, e };
}

describe('forgetInCopy', () => {
  it('rewrites a backup without the scope: no trace in the file, the rest intact', async () => {
    const secret = `zq${newEventId().toLowerCase()}`;
    const { copy } = await backedUp(secret);
    expect(has(copy, secret)).toBe(true);
    const result = await forgetInCopy(copy, { scopes: [{ namespace: NS }] });
    expect(result).toEqual({
      counts: { events: 1, records: 1, pending: 1, logs: 0 },
      rewritten: true,
    });
    expect(has(copy, secret)).toBe(false);
    // Nothing else written beside it: no journal, WAL or temporary file.
    expect(readdirSync(dirname(copy))).toEqual(['daily-20260101T000000Z.db']);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    const reopened = await openSqliteStorage({ path: copy, readOnly: true });
    try {
      const stats = await reopened.stats();
      expect(stats.projects.map((p) => p.namespace)).toEqual([OTHER]);
      expect(stats.events.total).toBe(100);
      expect((await reopened.searchRecords({ query: 'kept', limit: 50 })).length).toBe(20);
    } finally {
      await reopened.close();
    }
  });

  it('rewrites a copy made before team memory (no kept copies of teammates’ records), not deletes it', async () => {
    const secret = `zq${newEventId().toLowerCase()}`;
    const { copy } = await backedUp(secret);
    const older = new Database(copy);
    older.exec('DROP TABLE team_record_copies');
    older.close();
    for (const scope of [{ namespace: NS }, { all: true as const }]) {
      await expect(forgetInCopy(copy, { scopes: [scope], dryRun: true })).resolves.toMatchObject({
        rewritten: false,
      });
    }
    await expect(forgetInCopy(copy, { scopes: [{ namespace: NS }] })).resolves.toMatchObject({
      counts: { events: 1, records: 1 },
      rewritten: true,
    });
    expect(has(copy, secret)).toBe(false);
  });

  it("widens a project scope to the copy's other namespaces that name the directory", async () => {
    const secret = `zq${newEventId().toLowerCase()}`;
    const { copy } = await backedUp(secret, '/src/app');
    const result = await forgetInCopy(copy, {
      scopes: [{ namespace: '/actor/alice/project/app-after-remote/' }],
      directories: ['/src/app'],
    });
    expect(result.rewritten).toBe(true);
    expect(has(copy, secret)).toBe(false);
  });

  it('folds a WAL kept beside the copy into the rewrite, and removes it', async () => {
    const secret = `zq${newEventId().toLowerCase()}`;
    const { copy } = await backedUp(`unrelated-${secret}`);
    // A copy set aside with its WAL (restore does that): the secret is only in the WAL.
    const writer = new Database(copy);
    writer.pragma('wal_autocheckpoint = 0');
    writer
      .prepare(
        `INSERT INTO retrieval_log (namespace, query, record_ids, scores, latency_ms, timed_out, budget_cut, created_at)
         VALUES (?, ?, '[]', '[]', 1, 0, 0, ?)`,
      )
      .run(NS, `what is ${secret}`, new Date().toISOString());
    const aside = join(tempDir(), 'kiro-learn.db.before-restore-20260101T000000Z');
    copyFileSync(copy, aside);
    copyFileSync(`${copy}-wal`, `${aside}-wal`);
    writer.close();
    expect(has(`${aside}-wal`, secret)).toBe(true);
    const result = await forgetInCopy(aside, { scopes: [{ namespace: NS }] });
    expect(result.rewritten).toBe(true);
    expect(result.counts.logs).toBe(1);
    expect(has(aside, secret)).toBe(false);
    expect(existsSync(`${aside}-wal`)).toBe(false);
  });

  it('leaves a copy that holds nothing of the scope untouched', async () => {
    const secret = `zq${newEventId().toLowerCase()}`;
    const { copy } = await backedUp(secret);
    const before = readFileSync(copy);
    const result = await forgetInCopy(copy, {
      scopes: [{ namespace: '/actor/alice/project/none/' }],
    });
    expect(result).toEqual({
      counts: { events: 0, records: 0, pending: 0, logs: 0 },
      rewritten: false,
    });
    expect(readFileSync(copy).equals(before)).toBe(true);
  });

  it('fails clearly on a file that is not a database, and leaves it as it was', async () => {
    const path = join(tempDir(), 'not-a-db.db');
    writeFileSync(path, 'hello, not sqlite at all '.repeat(100));
    await expect(forgetInCopy(path, { scopes: [{ all: true }] })).rejects.toThrow(
      /cannot read the copy/,
    );
    expect(readFileSync(path, 'utf8')).toMatch(/^hello/);
    expect(existsSync(`${path}.forget`)).toBe(false);
  });
});
