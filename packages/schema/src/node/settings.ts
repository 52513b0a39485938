import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS } from '../limits.js';
import { dataDir } from './paths.js';

/** How a client (shim, MCP server, CLI) reaches the collector. */
export interface CollectorAddress {
  /** Host the collector listens on. */
  host: string;
  /** TCP port. */
  port: number;
  /** `http://host:port` (IPv6 hosts bracketed). */
  baseUrl: string;
  /** Bearer token, where one is configured. */
  token?: string;
  /** Data directory the address was read from. */
  home: string;
}

/**
 * Reads the collector's address the same way the daemon does: `settings.json` in the data
 * dir, then `KIRO_LEARN_HOST` / `KIRO_LEARN_PORT` / `KIRO_LEARN_TOKEN` (env wins). Never
 * throws: unreadable or invalid values fall back to the defaults, because a hook must not
 * fail. The daemon itself validates settings strictly at start-up.
 */
export function collectorAddress(env: NodeJS.ProcessEnv = process.env): CollectorAddress {
  const home = dataDir(env);
  let file: { host?: unknown; port?: unknown; token?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));
    if (parsed && typeof parsed === 'object') file = parsed as typeof file;
  } catch {
    // no settings file, or not JSON: defaults
  }
  const host = pickHost(env['KIRO_LEARN_HOST']) ?? pickHost(file.host) ?? DEFAULTS.host;
  const port = pickPort(env['KIRO_LEARN_PORT']) ?? pickPort(file.port) ?? DEFAULTS.port;
  const token = pickToken(env['KIRO_LEARN_TOKEN']) ?? pickToken(file.token);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return { host, port, baseUrl: `http://${urlHost}:${port}`, home, ...(token ? { token } : {}) };
}

function pickHost(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9.:-]{1,253}$/.test(value) ? value : undefined;
}

function pickPort(value: unknown): number | undefined {
  const port = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536
    ? port
    : undefined;
}

function pickToken(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
