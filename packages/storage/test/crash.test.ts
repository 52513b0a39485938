import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../src/index.js';
import { tempDir } from './helpers.js';

// A child process writes events as fast as it can and prints each id once its write
// resolved; it is killed with SIGKILL mid-stream. Every printed id must be on disk.
const writer = `
import { openSqliteStorage } from '@kiro-learn/storage';
import { newEventId } from '@kiro-learn/schema';
const storage = await openSqliteStorage({ path: process.argv[1] });
for (let i = 0; ; i++) {
  const batch = Array.from({ length: 8 }, () => ({
    event_id: newEventId(), session_id: 's', actor_id: 'a', namespace: '/actor/a/project/p/',
    schema_version: 1, kind: 'note', body: { type: 'text', content: 'x'.repeat(2000) },
    valid_time: new Date().toISOString(), source: { surface: 'api', version: '1', client_id: 'c' },
  }));
  await Promise.all(batch.map(async (e) => { await storage.putEvent(e, { pending: true }); process.stdout.write(e.event_id + '\\n'); }));
}
`;

describe('durability', () => {
  it('keeps every committed row after the writer is killed with SIGKILL', async () => {
    const path = join(tempDir(), 'kill.db');
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer, path], {
      cwd: new URL('..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: string[] = [];
    let buffered = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        acknowledged.push(...lines);
        if (acknowledged.length >= 2000 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const storage = await openSqliteStorage({ path });
    try {
      const stored = new Set(
        (await storage.listPending('/actor/a/project/p/')).map((p) => p.eventId),
      );
      const missing = acknowledged.filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      expect(await storage.getEvent(acknowledged.at(-1)!)).toBeDefined();
    } finally {
      await storage.close();
    }
  });
});
