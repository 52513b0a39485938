import { closeSync, copyFileSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  envFor,
  flood,
  freePort,
  kiroLearn,
  NO_MODEL,
  removeHomes,
  sleep,
  spawnCollector,
  tempHome,
} from './harness.js';

afterAll(removeHomes);

/** A database holding a few hundred events, closed cleanly: made once, copied per test. */
let made: string | undefined;
async function populated() {
  if (!made) {
    const home = tempHome();
    const port = await freePort();
    const collector = await spawnCollector(envFor(home, port, NO_MODEL), port);
    const load = flood(port, 4);
    while (load.acked.length < 300) await sleep(20);
    await load.stop();
    collector.child.kill('SIGTERM');
    expect(await collector.exited).toMatchObject({ code: 0 });
    made = join(home, 'kiro-learn.db');
  }
  const home = tempHome();
  const database = join(home, 'kiro-learn.db');
  copyFileSync(made, database);
  return { home, env: envFor(home, await freePort(), NO_MODEL), database };
}

function overwrite(path: string, offset: number, length: number) {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset);
  closeSync(fd);
}

describe('a damaged database', () => {
  it('damaged mid-file: doctor fails its integrity check, names the file and the recovery', async () => {
    const { env, database } = await populated();
    const size = statSync(database).size;
    overwrite(database, Math.floor(size / 2 / 4096) * 4096, 3 * 4096);
    const doctor = kiroLearn(['doctor'], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(new RegExp(`✗ database ${database} is damaged: .+`));
    expect(doctor.stdout).toMatch(/→ see "The database is damaged" in docs\/troubleshooting\.md/);
  });

  it('damaged header: start refuses with one clear message, doctor says the same', async () => {
    const { env, database } = await populated();
    overwrite(database, 0, 100);
    const start = kiroLearn(['start', '--foreground'], env);
    expect(start.code).toBe(1);
    expect(start.stderr.trim().split('\n')).toHaveLength(1);
    expect(start.stderr).toMatch(
      new RegExp(
        `the database ${database} is damaged .*see "The database is damaged" in docs/troubleshooting\\.md`,
      ),
    );
    const doctor = kiroLearn(['doctor'], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/is damaged/);
  });

  it('healthy: doctor says the database passes its integrity check', async () => {
    const { env, database } = await populated();
    const doctor = kiroLearn(['doctor'], env);
    expect(doctor.stdout).toContain(`✓ database ${database} passes its integrity check`);
  });
});
