import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import type { Event } from '@kiro-learn/schema';
import { CLI, freePort, healthy, waitFor as until } from '@kiro-learn/test-harness';
import { type EmbeddedServer, freshSchema, startEmbeddedServer } from '@kiro-learn/test-postgres';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Daemon, startDaemon } from '../src/daemon.js';
import { makeEvent, pgRows as rows, send } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function homeWith(settings: Record<string, unknown>): string {
  const home = mkdtempSync(join(tmpdir(), 'kl-pg-fault-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

/** A collector daemon in this process on `url`. */
async function daemonOn(url: string, settings: Record<string, unknown>): Promise<Daemon> {
  const home = homeWith(settings);
  const daemon = await startDaemon({
    env: {
      ...process.env,
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_PORT: '0',
      KIRO_LEARN_STORAGE_URL: url,
    },
  });
  cleanups.push(() => daemon.stop());
  return daemon;
}

const portOf = (daemon: Daemon) => Number(new URL(daemon.url).port);

describe('PostgreSQL faults', () => {
  it('a collector killed mid-extraction leaves nothing half-done, and another takes the batch over', async () => {
    const url = inject('postgresUrl');
    const schema = freshSchema();
    const pids = join(mkdtempSync(join(tmpdir(), 'kl-agent-pids-')), 'pids');
    cleanups.push(() => {
      // The hanging agent outlives its killed collector: end it too.
      for (const pid of existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n') : []) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone already
        }
      }
    });
    const home = homeWith({
      storage: { schema },
      extraction: { mode: 'acp', command: testAgentCommand('hang').join(' '), claimTtlMs: 1000 },
      buffer: { idleMs: 600_000 },
    });
    const port = await freePort();
    const a: ChildProcess = spawn(process.execPath, [CLI, 'start', '--foreground'], {
      env: {
        ...process.env,
        KIRO_LEARN_HOME: home,
        KIRO_LEARN_PORT: String(port),
        KIRO_LEARN_STORAGE_URL: url,
        KIRO_LEARN_TEST_AGENT_PIDFILE: pids,
      },
      stdio: 'ignore',
    });
    cleanups.push(() => {
      a.kill('SIGKILL');
    });
    await until('collector A', async () => ((await healthy(port)) ? true : undefined));
    const turn: Event[] = [
      makeEvent({ kind: 'prompt', body: { type: 'text', content: 'why does the webhook fail?' } }),
      makeEvent({
        kind: 'tool_use',
        body: { type: 'text', content: 'edited src/webhooks/stripe.ts' },
      }),
      makeEvent({ kind: 'session_summary', body: { type: 'text', content: 'fixed the raw body' } }),
    ];
    for (const event of turn) {
      expect((await send(port, 'POST', '/v1/events', { body: event })).status).toBe(200);
    }
    // The turn ended: A claims the project and its agent hangs mid-extraction.
    await until('A to claim the extraction', async () => {
      const claims = await rows(url, schema, 'SELECT owner FROM extraction_claims');
      return claims.length === 1 && existsSync(pids) ? true : undefined;
    });
    a.kill('SIGKILL');
    await new Promise((resolve) => a.once('exit', resolve));
    expect(await rows(url, schema, 'SELECT record_id FROM memory_records')).toEqual([]);
    expect(await rows(url, schema, 'SELECT event_id FROM pending')).toHaveLength(3);

    // B starts; once A's claim runs out, B extracts the whole batch, once.
    const b = await daemonOn(url, {
      storage: { schema },
      extraction: { mode: 'builtin', claimTtlMs: 1000 },
      buffer: { idleMs: 200 },
    });
    await until('B to extract the batch', async () => {
      const left = await rows(url, schema, 'SELECT event_id FROM pending');
      return left.length === 0 ? true : undefined;
    });
    const runs = await rows<{ batch_size: number; status: string }>(
      url,
      schema,
      'SELECT batch_size, status FROM extraction_log',
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ batch_size: 3 });
    expect(runs[0]!.status).not.toBe('failed');
    expect((await send(portOf(b), 'GET', '/v1/status')).json.storage.ok).toBe(true);
  });

  it('PostgreSQL restarted under 8 writers: in-flight writes get 503, nothing acknowledged is lost, the collector reconnects by itself', async () => {
    const server: EmbeddedServer = await startEmbeddedServer();
    cleanups.push(() => server.stop());
    const schema = freshSchema();
    const daemon = await daemonOn(server.url, {
      storage: { schema, acquireTimeoutMs: 500 },
      extraction: { mode: 'builtin' },
    });
    const port = portOf(daemon);
    const acknowledged = new Set<string>();
    const spooled: Event[] = [];
    const statuses = new Map<number, number>();
    let phase: 'before' | 'down' | 'after' = 'before';
    let afterAcks = 0;
    let stop = false;

    // A writer is a shim: what is not acknowledged is spooled and sent again later.
    const writer = async (n: number) => {
      const agent = new Agent({ keepAlive: true });
      for (let i = 0; i < 400 && !stop; i++) {
        const event = spooled.shift() ?? makeEvent({ session_id: `w${n}` });
        const reply = await send(port, 'POST', '/v1/events', { body: event }).catch(() => ({
          status: 0,
        }));
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 200) {
          acknowledged.add(event.event_id);
          if (phase === 'after') afterAcks++;
        } else {
          spooled.push(event);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      agent.destroy();
    };
    const writers = Array.from({ length: 8 }, (_, n) => writer(n));

    await until('writes before the restart', async () =>
      acknowledged.size >= 80 ? true : undefined,
    );
    phase = 'down';
    await server.halt();
    await until('a 503 while the server is down', async () =>
      (statuses.get(503) ?? 0) > 0 ? true : undefined,
    );
    await server.start();
    phase = 'after';
    await until('writes after the restart', async () => (afterAcks >= 80 ? true : undefined));
    stop = true;
    await Promise.all(writers);
    // The spool drains once the server is back.
    while (spooled.length > 0) {
      const event = spooled.shift()!;
      const reply = await send(port, 'POST', '/v1/events', { body: event });
      if (reply.status === 200) acknowledged.add(event.event_id);
      else spooled.push(event);
    }

    const stored = await rows<{ event_id: string }>(
      server.url,
      schema,
      'SELECT event_id FROM events WHERE event_id = ANY($1::text[])',
      [[...acknowledged]],
    );
    expect(stored.length).toBe(acknowledged.size);
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect((await send(port, 'GET', '/v1/status')).json.storage).toMatchObject({ ok: true });
  });
});
