import { resolve } from 'node:path';
import { ensureDataDir, projectIdentity } from '@kiro-learn/schema/node';
import { CollectorError } from '../errors.js';
import { cliAddress, probe } from '../lifecycle/client.js';
import { daemonFiles } from '../lifecycle/files.js';
import { VERSION } from '../version.js';
import type { CommandIO } from './types.js';

/**
 * The collector a data command talks to: the running one over HTTP, or, when none runs,
 * one built in this process over the same database and settings, answering the very same
 * routes (so forget, export, import, backup and gc behave alike either way).
 */
export interface CollectorLink {
  /** True when a collector daemon answered; false when this process opened the database. */
  readonly running: boolean;
  /** One request to the collector's API (path from `/v1/…`). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** A JSON request; a non-2xx answer throws CollectorError with the collector's message. */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function linkCollector(io: CommandIO): Promise<CollectorLink> {
  const address = cliAddress(io.env);
  let request: CollectorLink['request'];
  let close = async () => {};
  let running = false;
  if ((await probe(address)).ok) {
    running = true;
    request = (path, init = {}) =>
      fetch(`${address.baseUrl}${path}`, {
        ...init,
        headers: {
          ...(address.token ? { Authorization: `Bearer ${address.token}` } : {}),
          ...(init.headers as Record<string, string> | undefined),
        },
      });
  } else {
    // Loaded only here: against a running collector a command needs no storage engine.
    const [{ loadSettings }, { openCollectorStorage }, { createCollector }] = await Promise.all([
      import('../config/load.js'),
      import('../storage.js'),
      import('../app.js'),
    ]);
    const loaded = loadSettings(io.env);
    if (!loaded.config) {
      throw new CollectorError(
        'invalid_settings',
        `invalid settings (${loaded.file}): ${loaded.errors.join('; ')}`,
      );
    }
    const settings = loaded.config;
    ensureDataDir(settings.home);
    const opened = await openCollectorStorage(settings, daemonFiles(settings.home).database);
    const collector = createCollector({
      storage: opened.storage,
      settings,
      version: VERSION,
      storageHealth: opened.health,
    });
    request = async (path, init = {}) =>
      collector.app.request(path, {
        ...init,
        headers: {
          Host: `127.0.0.1:${settings.port}`,
          ...(settings.token ? { Authorization: `Bearer ${settings.token}` } : {}),
          ...(init.headers as Record<string, string> | undefined),
        },
      });
    close = () => collector.close();
  }
  return {
    running,
    request,
    async json<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await request(path, {
        method,
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
      });
      const answer = (await response.json().catch(() => ({}))) as {
        error?: string;
        details?: unknown;
      };
      if (!response.ok) throw answerError(response.status, answer);
      return answer as T;
    },
    close,
  };
}

/** A collector's `{error, details}` answer as one CLI line. */
export function answerError(status: number, answer: { error?: string; details?: unknown }) {
  const details = Array.isArray(answer.details)
    ? `: ${answer.details.join('; ')}`
    : typeof answer.details === 'string'
      ? `: ${answer.details}`
      : '';
  return new CollectorError(
    'http',
    `the collector answered ${status}: ${answer.error ?? 'no details'}${details}`,
  );
}

/** The namespace of the project at `dir` (relative to the working directory). */
export function projectNamespace(io: CommandIO, dir: string): { namespace: string; root: string } {
  const identity = projectIdentity(resolve(io.cwd, dir), { env: io.env });
  return { namespace: identity.namespace, root: identity.root };
}

/** A progress line on a terminal (`\r`-rewritten); nothing elsewhere. */
export function progress(stream: CommandIO['stderr']) {
  let last = 0;
  return {
    update(text: string) {
      if (!stream.isTTY) return;
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      stream.write(`\r${text}\u001b[K`);
    },
    done() {
      if (stream.isTTY && last > 0) stream.write('\r\u001b[K');
    },
  };
}

/** A bar of `width` cells for a fraction 0–1. */
export function bar(fraction: number, width = 24): string {
  const cells = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return `[${'#'.repeat(cells)}${'.'.repeat(width - cells)}] ${Math.floor(fraction * 100)}%`;
}
