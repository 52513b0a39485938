// Every ```sh block of docs/*.md, run command by command against a real collector: the
// built CLI (apps/collector/dist/cli.js) as `kiro-learn` on the PATH, Node 22 as `node`.
// Rules, applied to every page alike:
// - each page gets a fresh HOME, data dir ($HOME/.kiro-learn), free port and collector,
//   so a page can change settings or purge data without touching the others (and pages
//   run side by side);
// - a page that does not mention semantic search (`semantic`, `reindex`) runs its collector
//   without the embedding model (KIRO_LEARN_SEMANTIC_ENABLED=false): its commands never search
//   by meaning, and each start then loads no model, each stop waits for no load;
// - commands run in a git project at $HOME/src/payments-api, with KIRO_LEARN_ACTOR=dev;
// - the page's port replaces 21100 in `127.0.0.1:21100` and `localhost:21100`;
// - a command must exit 0, or the code its `# exits N` comment declares;
// - each block starts with the collector running (a block may stop or purge it);
// - a block whose first line is `# not run by the docs test: <reason>` is listed, not run.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '@kiro-learn/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, skipReason } from './blocks.js';
import { pages, repoRoot } from './docs.js';

const CLI = join(repoRoot, 'apps/collector/dist/cli.js');
// Hang guards, not speed limits: a demo on two cores shared with other suites can take a minute.
const COMMAND_TIMEOUT_MS = 120_000;

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kiro-learn-docs-')));
const bin = join(root, 'bin');

/** Where one page's commands run. */
interface Sandbox {
  project: string;
  port: number;
  env: NodeJS.ProcessEnv;
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function bash(box: Sandbox, text: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', text],
      { cwd: box.project, env: box.env, encoding: 'utf8', timeout: COMMAND_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const killed = error?.killed ? `\n(killed after ${COMMAND_TIMEOUT_MS / 1000} s)` : '';
        resolve({ status: code, stdout, stderr: stderr + killed });
      },
    );
  });
}

async function sandbox(name: string, withModel: boolean): Promise<Sandbox> {
  const home = join(root, name);
  const project = join(home, 'src', 'payments-api');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name": "payments-api", "private": true}\n');
  const port = await freePort();
  const inherited = Object.entries(process.env).filter(([key]) => !key.startsWith('KIRO_LEARN_'));
  const env = {
    ...Object.fromEntries(inherited),
    HOME: home,
    KIRO_LEARN_HOME: join(home, '.kiro-learn'),
    KIRO_LEARN_PORT: String(port),
    KIRO_LEARN_ACTOR: 'dev',
    ...(withModel ? {} : { KIRO_LEARN_SEMANTIC_ENABLED: 'false' }),
    PATH: [bin, dirname(process.execPath), process.env['PATH']].join(':'),
    NO_COLOR: '1',
  };
  const box = { project, port, env };
  expect((await bash(box, 'git init -q')).status).toBe(0);
  return box;
}

/** What answers /healthz on a port: a pid, or nothing. */
async function healthPid(port: number): Promise<number | null | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    const body = (await res.json()) as { pid?: unknown };
    return typeof body.pid === 'number' ? body.pid : null;
  } catch {
    return undefined;
  }
}

/**
 * The page's own collector is up: the one its data dir's PID file names answers on its
 * port. On a loaded machine another suite's collector can take a port that was free a
 * moment ago; that one must not count as the page's.
 */
async function ensureCollector(box: Sandbox): Promise<void> {
  let own: number | undefined;
  try {
    own = JSON.parse(
      readFileSync(join(String(box.env['KIRO_LEARN_HOME']), 'collector.pid'), 'utf8'),
    ).pid;
  } catch {
    own = undefined;
  }
  const answering = await healthPid(box.port);
  if (answering !== undefined && answering === own) return;
  if (answering !== undefined) {
    // Someone else's: the page moves to a port of its own.
    box.port = await freePort();
    box.env['KIRO_LEARN_PORT'] = String(box.port);
  }
  expect((await bash(box, 'kiro-learn start')).status).toBe(0);
}

beforeAll(() => {
  mkdirSync(bin);
  writeFileSync(join(bin, 'kiro-learn'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(join(bin, 'kiro-learn'), 0o755);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Pages that mention semantic search: their collectors load the embedding model. */
const SEMANTIC = /semantic|reindex/i;

const all = pages().flatMap((page) => page.blocks.map((block) => ({ page: page.name, block })));
const shell = all.filter(({ block }) => block.lang === 'sh');
const skipped = shell.filter(({ block }) => skipReason(block) !== undefined);

describe('every command in docs/', () => {
  it('puts commands only in ```sh blocks (run) or ```text blocks (shown)', () => {
    const other = all
      .filter(({ block }) => /^(bash|shell|console|zsh|shell-session)$/.test(block.lang))
      .map(({ page, block }) => `${page}:${block.line} (${block.lang})`);
    expect(other).toEqual([]);
  });

  it('lists the blocks it does not run, each with its reason', () => {
    const list = skipped.map(({ page, block }) => `${page}:${block.line}: ${skipReason(block)}`);
    console.log(
      `docs test: ${shell.length - skipped.length} sh blocks run, ${skipped.length} not run by rule:\n  ${list.join('\n  ')}`,
    );
    for (const { block } of skipped) expect(skipReason(block)).not.toBe('');
  });
});

describe.concurrent('the sh blocks of', () => {
  for (const page of pages()) {
    const blocks = page.blocks.filter((b) => b.lang === 'sh' && skipReason(b) === undefined);
    if (blocks.length === 0) continue;
    it(page.name, { timeout: 600_000 }, async () => {
      const box = await sandbox(page.name.replace(/\.md$/, ''), SEMANTIC.test(page.text));
      try {
        for (const block of blocks) {
          await ensureCollector(box);
          for (const command of commands(block)) {
            const text = command.text.replace(
              /\b(127\.0\.0\.1|localhost):21100\b/g,
              `$1:${box.port}`,
            );
            const result = await bash(box, text);
            const said = `${page.name}:${command.line}: ${command.text}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
            expect(result.status, said).toBe(command.exits);
          }
        }
      } finally {
        await bash(box, 'kiro-learn stop');
      }
    });
  }
});
