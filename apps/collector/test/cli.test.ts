import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import {
  CLI,
  cliAsync,
  envFor,
  freePort,
  healthy,
  NO_MODEL,
  sleep,
  tempHome,
} from '@kiro-learn/test-harness';
import { describe, expect, it } from 'vitest';

type Cleanup = (fn: () => Promise<void> | void) => void;

/**
 * A data dir and port of its own, cleaned up when the test finishes (`onFinished`: the
 * test's own onTestFinished, since the tests run side by side); the collector runs without
 * the embedding model unless `extra` turns it on (these tests never search by meaning).
 */
async function setup(onFinished: Cleanup, extra: Record<string, string> = {}) {
  const home = tempHome();
  const port = await freePort();
  const env = envFor(home, port, { ...NO_MODEL, ...extra });
  onFinished(async () => {
    await cliAsync(['stop'], env);
    rmSync(home, { recursive: true, force: true });
  });
  return { home, port, env };
}

// Every test has its own data dir and port, and runs the CLI as a child without blocking
// this process: they run side by side (most of their time is waiting on collectors).
describe.concurrent('kiro-learn CLI', () => {
  it('prints help and its version', async () => {
    const help = await cliAsync(['--help'], process.env);
    expect(help.code).toBe(0);
    for (const name of ['start', 'stop', 'restart', 'status', 'logs', 'doctor', 'search']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect((await cliAsync(['--version'], process.env)).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const unknown = await cliAsync(['frobnicate'], process.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('starts detached, says so on a second start, reports status, stops', async ({
    onTestFinished,
  }) => {
    const { home, port, env } = await setup(onTestFinished);
    const started = await cliAsync(['start'], env);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(
      new RegExp(`started \\(pid \\d+\\) at http://127\\.0\\.0\\.1:${port}`),
    );
    expect(await healthy(port)).toBe(true);

    const again = await cliAsync(['start'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already running/);

    const status = await cliAsync(['status', '--json'], env);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(report).toMatchObject({
      running: true,
      url: `http://127.0.0.1:${port}`,
      home,
      events: 0,
    });
    expect(JSON.parse(readFileSync(join(home, 'collector.pid'), 'utf8')).pid).toBe(report.pid);

    const logs = await cliAsync(['logs', '-n', '5'], env);
    expect(logs.stdout).toMatch(/INFO {2}collector started/);

    const stopped = await cliAsync(['stop'], env);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/stopped/);
    expect(await healthy(port)).toBe(false);
    expect(existsSync(join(home, 'collector.pid'))).toBe(false);
    expect((await cliAsync(['status'], env)).code).toBe(1);
    expect(readFileSync(join(home, 'logs', 'collector.log'), 'utf8')).toMatch(
      /"msg":"collector stopped"/,
    );
  });

  it('a collector too busy to answer for a moment: doctor says it runs, stop stops it gracefully', async ({
    onTestFinished,
  }) => {
    const { home, env } = await setup(onTestFinished);
    expect((await cliAsync(['start'], env)).code).toBe(0);
    const pid = JSON.parse(readFileSync(join(home, 'collector.pid'), 'utf8')).pid as number;
    // Frozen (as a loaded machine can leave it for seconds): it holds its data dir and port
    // but answers nothing.
    process.kill(pid, 'SIGSTOP');
    onTestFinished(() => {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {}
    });
    const doctor = await cliAsync(['doctor'], env);
    expect(doctor.stdout).toMatch(/the collector for .* \(pid \d+\) runs but did not answer/);
    expect(doctor.stdout).not.toMatch(/held by another program/);
    // stop waits for an answer, then asks it to stop (SIGTERM) rather than killing it.
    const stopping = cliAsync(['stop'], env);
    await sleep(1500);
    process.kill(pid, 'SIGCONT');
    const stopped = await stopping;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/stopped \(pid \d+\)/);
    expect(readFileSync(join(home, 'logs', 'collector.log'), 'utf8')).toMatch(
      /"msg":"collector stopped"/,
    );
  });

  it('does not take a recycled PID for a running collector, nor signal it', async ({
    onTestFinished,
  }) => {
    const { home, port, env } = await setup(onTestFinished);
    const bystander = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    onTestFinished(() => {
      bystander.kill();
    });
    writeFileSync(
      join(home, 'collector.pid'),
      JSON.stringify({ pid: bystander.pid, host: '127.0.0.1', port, version: '0', startedAt: '' }),
    );
    const status = await cliAsync(['status', '--json'], env);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout).running).toBe(false);
    expect((await cliAsync(['stop'], env)).stdout).toMatch(/not running/);
    expect(bystander.exitCode).toBeNull();
    expect(bystander.killed).toBe(false);
  });

  it("another data dir's collector on the port: start refuses and names it, status and doctor report only this data dir, stop leaves it alone", async ({
    onTestFinished,
  }) => {
    const { home, port, env } = await setup(onTestFinished);
    const other = tempHome();
    const otherEnv = envFor(other, port, NO_MODEL);
    onTestFinished(async () => {
      await cliAsync(['stop'], otherEnv);
      rmSync(other, { recursive: true, force: true });
    });
    expect((await cliAsync(['start'], otherEnv)).code).toBe(0);
    const otherPid = JSON.parse(readFileSync(join(other, 'collector.pid'), 'utf8')).pid;

    for (const args of [['start'], ['start', '--foreground']]) {
      const started = await cliAsync(args, env);
      expect(started.code, args.join(' ')).toBe(1);
      expect(started.stdout).toBe('');
      expect(started.stderr).toBe(
        `kiro-learn: cannot start: port ${port} is held by the kiro-learn collector of another data dir (${other}, pid ${otherPid}); stop that one (KIRO_LEARN_HOME=${other} kiro-learn stop), or give ${home} another port (KIRO_LEARN_PORT=${port + 1} kiro-learn start, or "port" in ${join(home, 'settings.json')})\n`,
      );
    }
    expect(existsSync(join(home, 'collector.pid'))).toBe(false);

    const status = await cliAsync(['status'], env);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(
      new RegExp(
        `^kiro-learn collector for ${home} is not running: port ${port} is held by the kiro-learn collector of another data dir \\(${other}, pid ${otherPid}\\)`,
      ),
    );
    expect(status.stdout).not.toMatch(/events|memories/);
    const json = JSON.parse((await cliAsync(['status', '--json'], env)).stdout);
    expect(json).toMatchObject({
      running: false,
      home,
      port_held_by: { home: other, pid: otherPid },
    });
    expect(json).not.toHaveProperty('events');

    const doctor = await cliAsync(['doctor'], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `✗ collector for ${home} not running: port ${port} is held by the kiro-learn collector of another data dir (${other}, pid ${otherPid})`,
    );
    expect(doctor.stdout).not.toMatch(/collector running|semantic search/);

    const stopped = await cliAsync(['stop'], env);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/not running/);
    expect(stopped.stdout).toMatch(/another data dir/);
    expect(await healthy(port)).toBe(true);
  });

  it('a second collector on the same data dir is refused from the lock, without asking any port', async ({
    onTestFinished,
  }) => {
    const { home, port, env } = await setup(onTestFinished);
    expect((await cliAsync(['start'], env)).code).toBe(0);
    const pid = JSON.parse(readFileSync(join(home, 'collector.pid'), 'utf8')).pid;
    // Whatever answers on the second port is not asked: the data dir's lock decides.
    const otherPort = await freePort();
    let asked = 0;
    const listener = createHttpServer((_req, res) => {
      asked++;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => listener.listen(otherPort, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => listener.close(() => resolve())));
    const second = envFor(home, otherPort, NO_MODEL);
    for (const args of [['start'], ['start', '--foreground']]) {
      const refused = await cliAsync(args, second);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toContain(
        `the data dir ${home} is in use by another kiro-learn collector (pid ${pid}, port ${port})`,
      );
    }
    expect(asked).toBe(0);
    expect(await healthy(port)).toBe(true);
    // The data dir stays owner-only: the lock and its journal too.
    expect((await cliAsync(['backup'], env)).code).toBe(0);
    const modes: Array<[string, string]> = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        modes.push([path.slice(home.length + 1), (statSync(path).mode & 0o777).toString(8)]);
      }
    };
    walk(home);
    expect(modes.map(([file]) => file)).toEqual(
      expect.arrayContaining(['collector.lock', 'collector.lock-journal', 'kiro-learn.db']),
    );
    for (const [file, mode] of modes) {
      const isDir = statSync(join(home, file)).isDirectory();
      expect(`${file} ${mode}`).toBe(`${file} ${isDir ? '700' : '600'}`);
    }
  });

  it('start warns when the database is damaged and points to the recovery steps', async ({
    onTestFinished,
  }) => {
    const { home, port, env } = await setup(onTestFinished);
    expect((await cliAsync(['start'], env)).code).toBe(0);
    for (let i = 0; i < 300; i++) {
      const event = {
        event_id: newEventId(),
        session_id: 's',
        actor_id: 'dev',
        namespace: '/actor/dev/project/app/',
        schema_version: 1,
        kind: 'tool_use',
        body: { type: 'text', content: `run ${i} ${'output '.repeat(200)}` },
        valid_time: new Date().toISOString(),
        source: { surface: 'kiro-cli', version: '1', client_id: 't' },
      };
      const reply = await fetch(`http://127.0.0.1:${port}/v1/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(event),
      });
      expect(reply.status).toBe(200);
    }
    expect((await cliAsync(['stop'], env)).code).toBe(0);
    // Pages in the middle of the file (event text) overwritten: it still opens.
    const db = join(home, 'kiro-learn.db');
    const bytes = readFileSync(db);
    const page = 4096;
    const middle = Math.floor(bytes.length / page / 2) * page;
    bytes.fill(0xff, middle, middle + 4 * page);
    writeFileSync(db, bytes);

    const started = await cliAsync(['start'], env);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/started/);
    expect(started.stderr).toMatch(
      /^kiro-learn: warning: the database is damaged; see "The database is damaged" in docs\/troubleshooting\.md/,
    );
    expect(readFileSync(join(home, 'logs', 'collector.log'), 'utf8')).toMatch(/is damaged/);
  });

  it('a SIGTERM during start-up stops the collector cleanly once it has started', async ({
    onTestFinished,
  }) => {
    // With the model: the SIGTERM comes while it loads, which the stop must wait for (a
    // process that exits while the worker is inside onnxruntime aborts, exit code lost).
    const { home, env } = await setup(onTestFinished, { KIRO_LEARN_SEMANTIC_ENABLED: 'true' });
    const child = spawn(process.execPath, [CLI, 'start', '--foreground'], {
      env,
      stdio: 'ignore',
    });
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    // The PID file names the process early in start-up: what `kiro-learn stop` signals.
    const pidFile = join(home, 'collector.pid');
    while (!existsSync(pidFile) && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(existsSync(pidFile)).toBe(false);
    expect(readFileSync(join(home, 'logs', 'collector.log'), 'utf8')).toMatch(
      /"msg":"collector stopped"/,
    );
  });

  it('names the port and the setting when another program holds the port', async ({
    onTestFinished,
  }) => {
    const { port, env } = await setup(onTestFinished);
    // It accepts connections and never answers (nor closes them: they end with the test).
    const sockets = new Set<Socket>();
    const squatter: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          squatter.close(() => resolve());
        }),
    );
    const r = await cliAsync(['start'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another program`),
    );
    expect(r.stderr).toMatch(/KIRO_LEARN_PORT/);
  });

  it('refuses to start off loopback without a token, and says why', async ({ onTestFinished }) => {
    const { env } = await setup(onTestFinished, { KIRO_LEARN_HOST: '0.0.0.0' });
    const r = await cliAsync(['start', '--foreground'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/token: binding 0\.0\.0\.0 .* set KIRO_LEARN_TOKEN/);
  });

  it('stops start-up on an invalid setting with dot.path: message', async ({ onTestFinished }) => {
    const { home, env } = await setup(onTestFinished);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ retrieval: { records: 0 } }));
    const r = await cliAsync(['start'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ {2}retrieval\.records: /m);
  });

  it('searches the current project through a running collector', async ({ onTestFinished }) => {
    const { home, env } = await setup(onTestFinished);
    expect((await cliAsync(['search', 'anything'], env)).stderr).toMatch(
      /not running.*kiro-learn start/,
    );
    expect((await cliAsync(['start'], env)).code).toBe(0);
    const r = await cliAsync(['search', 'stripe', 'webhook', '--project', home], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^no memories match in \/actor\/.+\/project\/.+\/$/m);
  });

  it('doctor reports each check and what to fix', async ({ onTestFinished }) => {
    const { home, env } = await setup(onTestFinished, { PATH: '/nonexistent' });
    const r = await cliAsync(['doctor'], env, home);
    expect(r.stdout).toMatch(/✓ Node \d+/);
    expect(r.stdout).toMatch(/! collector not running; port \d+ is free/);
    expect(r.stdout).toMatch(/compressor agent "kiro-cli" not found/);
    expect(r.stdout).toMatch(/→ run: kiro-learn init/);
    expect(r.code).toBe(0);
  });
});
