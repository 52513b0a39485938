import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { type CollectorAddress, collectorAddress } from '@kiro-learn/schema/node';
import { isFileLocked } from '@kiro-learn/storage/lock';

/** Health of the collector at an address, as its /healthz reports it. */
export interface Probe {
  ok: boolean;
  pid?: number;
  version?: string;
  /** The data dir the collector serves (collectors bound to loopback say it). */
  home?: string;
}

/**
 * How the CLI reaches the collector: the address clients read, with a wildcard bind
 * address (`0.0.0.0`, `::`) turned into loopback, which is where the CLI runs.
 */
export function cliAddress(env: NodeJS.ProcessEnv): CollectorAddress {
  const address = collectorAddress(env);
  if (address.host !== '0.0.0.0' && address.host !== '::') return address;
  return { ...address, host: '127.0.0.1', baseUrl: `http://127.0.0.1:${address.port}` };
}

/**
 * Asks /healthz. Only an answer from kiro-learn counts as running, so a recycled PID or
 * another program on the port never looks like a collector.
 *
 * Nothing listening is said at once (the connection is refused); a port that accepts gets
 * `timeoutMs` to answer. 5 s by default: a collector on a loaded machine can take seconds to
 * answer, and calling it "not running" (or "another program") sends the user to start a
 * second one (seen with 1 s at load average 27).
 */
export async function probe(address: CollectorAddress, timeoutMs = 5000): Promise<Probe> {
  try {
    const res = await fetch(`${address.baseUrl}/healthz`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return { ok: false };
    const body = (await res.json()) as {
      status?: unknown;
      pid?: unknown;
      version?: unknown;
      home?: unknown;
    };
    if (body.status !== 'ok') return { ok: false };
    return {
      ok: true,
      ...(typeof body.pid === 'number' ? { pid: body.pid } : {}),
      ...(typeof body.version === 'string' ? { version: body.version } : {}),
      ...(typeof body.home === 'string' ? { home: body.home } : {}),
    };
  } catch {
    return { ok: false };
  }
}

/**
 * probe(), but a collector that holds its data dir's lock (`lockPath`) is running: one
 * slow to answer (a loaded machine, or still starting) gets up to `patienceMs` more
 * before it counts as down.
 */
export async function probeRunning(
  address: CollectorAddress,
  lockPath: string,
  patienceMs = 10_000,
): Promise<Probe> {
  const health = await probe(address);
  if (health.ok || !isFileLocked(lockPath)) return health;
  const deadline = Date.now() + patienceMs;
  for (;;) {
    const again = await probe(address, 2000);
    if (again.ok || Date.now() >= deadline || !isFileLocked(lockPath)) return again;
    await sleep(200);
  }
}

/**
 * The data dir of the collector that answered, when it is not `home`: the port is held by
 * a collector of another data dir, whose totals, log and pauses are not this one's.
 * Undefined when it is this data dir's, or does not say.
 */
export function otherDataDir(health: Probe, home: string): string | undefined {
  if (!health.ok || health.home === undefined) return undefined;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  return real(health.home) === real(home) ? undefined : health.home;
}

/**
 * What to say when the port is held by another data dir's collector: which one holds it,
 * and the two ways out (stop that one, or give this data dir another port).
 */
export function otherDataDirHelp(
  address: CollectorAddress,
  other: string,
  pid?: number,
): { held: string; fix: string } {
  const q = (path: string) =>
    /^[\w/.@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
  return {
    held: `port ${address.port} is held by the kiro-learn collector of another data dir (${other}${pid !== undefined ? `, pid ${pid}` : ''})`,
    fix: `stop that one (KIRO_LEARN_HOME=${q(other)} kiro-learn stop), or give ${address.home} another port (KIRO_LEARN_PORT=${address.port + 1} kiro-learn start, or "port" in ${join(address.home, 'settings.json')})`,
  };
}

/** A JSON request to the collector's API with the configured token. */
export async function api<T>(address: CollectorAddress, path: string): Promise<T> {
  const get = () =>
    fetch(`${address.baseUrl}${path}`, {
      headers: {
        Accept: 'application/json',
        ...(address.token ? { Authorization: `Bearer ${address.token}` } : {}),
      },
      signal: AbortSignal.timeout(10_000),
    });
  // A kept-alive connection the server closed just as it was reused fails at once ("fetch
  // failed"); a GET is safe to send again.
  const res = await get().catch((error: unknown) => {
    if (error instanceof TypeError) return get();
    throw error;
  });
  const body = (await res.json().catch(() => ({}))) as { error?: string; details?: unknown };
  if (!res.ok) {
    const details = Array.isArray(body.details) ? `: ${body.details.join('; ')}` : '';
    throw new Error(
      `the collector answered ${res.status}: ${body.error ?? 'no details'}${details}`,
    );
  }
  return body as T;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
