import { afterEach, describe, expect, it } from 'vitest';
import {
  envFor,
  flood,
  freePort,
  missingAfterRestart,
  NO_MODEL,
  removeHomes,
  spawnCollector,
  tempHome,
} from './harness.js';

afterEach(removeHomes);

describe('kill -9 under concurrent ingest', () => {
  it('loses no acknowledged event, and the next collector starts on the same data dir', async () => {
    const home = tempHome();
    const port = await freePort();
    const env = envFor(home, port, NO_MODEL); // events only: no embedding model
    const first = await spawnCollector(env, port);
    const load = flood(port, 8);
    while (load.acked.length < 200) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    await load.stop();
    const acked = [...load.acked];
    console.log(`kill -9: ${acked.length} events acknowledged before the kill`);

    // The crash left its lock behind in no form: a new collector takes the data dir at once.
    expect(await missingAfterRestart(env, port, acked)).toEqual([]);
  });
});
