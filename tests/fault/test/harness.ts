import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type Event, newEventId } from '@kiro-learn/schema';
import {
  post,
  envFor as sharedEnvFor,
  tempHome as sharedTempHome,
  sleep,
} from '@kiro-learn/test-harness';

export {
  CLI,
  type CollectorChild,
  cli as kiroLearn,
  cliAsync as kiroLearnAsync,
  freePort,
  healthy,
  post,
  removeHomes,
  repoRoot,
  sleep,
  spawnCollector,
} from '@kiro-learn/test-harness';

export const NS = '/actor/dev/project/fault/';

/** A fresh data dir, removed by `removeHomes`. */
export const tempHome = () => sharedTempHome('kl-fault-');

/** A collector's environment, extracting with the built-in extractor. */
export function envFor(home: string, port: number, extra: Record<string, string> = {}) {
  return sharedEnvFor(home, port, { KIRO_LEARN_EXTRACTOR: 'builtin', ...extra });
}

/** A valid event of the fault namespace. */
export function makeEvent(overrides: Partial<Event> = {}): Event {
  return {
    event_id: newEventId(),
    session_id: 'fault-session',
    actor_id: 'dev',
    namespace: NS,
    schema_version: 1,
    kind: 'tool_use',
    body: {
      type: 'json',
      data: { tool_name: 'fs_read', tool_input: { path: 'src/app.ts' }, tool_response: 'ok' },
    },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'fault' },
    ...overrides,
  };
}

/** Sends events from `clients` keep-alive clients until `stop()`; collects the acknowledged ids. */
export function flood(
  port: number,
  clients: number,
  event: () => Event = () => makeEvent(),
  path = '/v1/events',
) {
  const acked: string[] = [];
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const e = event();
      const status = await post(agent, port, path, e);
      if (status === 200) acked.push(e.event_id);
      else if (status === 0) await sleep(20); // the collector is gone or going
    }
  });
  return {
    acked,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** The ids among `ids` the collector at `port` does not have. */
export async function missing(port: number, ids: readonly string[]): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const gone: string[] = [];
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids.slice(i, i + 8).map(
        (id) =>
          new Promise<void>((done) => {
            const req = request(
              { host: '127.0.0.1', port, path: `/v1/events/${id}`, agent },
              (res) => {
                res.resume();
                res.on('end', () => {
                  if (res.statusCode !== 200) gone.push(id);
                  done();
                });
              },
            );
            req.on('error', () => {
              gone.push(id);
              done();
            });
            req.end();
          }),
      ),
    );
  }
  agent.destroy();
  return gone;
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/** True while `pid` runs (a zombie nobody reaped yet counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
