// Forget means gone everywhere. For each forget scope a unique string (the canary) is
// written through every way text gets in: the hooks as the agent runs them (and the spool
// while the collector is down), the MCP server's save, an import, and the team share, both
// ways: records pushed to the team server, and a teammate's record that reached a prompt
// here (a copy is kept). Then the scope is forgotten with the CLI, and every file
// under the data dir (database, WAL, backups, spool, logs, the files gc saved) and every
// table of the team server is searched for it: nothing may hold it. Strings outside the
// scope are searched for the same way and must still be found, so the search reaches the
// data. All real: the collector and the hooks are child processes, the team server runs on
// PostgreSQL, the MCP server is driven by the official client.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newEventId, newRecordId } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import {
  type CollectorChild,
  cli,
  envFor,
  freePort,
  spawnCollector,
  tempHome,
  waitFor,
} from '@kiro-learn/test-harness';
import { freshSchema } from '@kiro-learn/test-postgres';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgRows, send, teamServerEnv, writeMemberSettings } from './helpers.js';

const SHIM = fileURLToPath(new URL('../bin/kiro-learn-shim.cjs', import.meta.url));
const MCP = fileURLToPath(new URL('../bin/kiro-learn-mcp.js', import.meta.url));
const REMOTE = 'git@github.com:acme/payments-api.git';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A string nothing else holds: letters and digits, one search term. */
const canary = (what: string) => `zq${what}${newEventId().toLowerCase()}`;

/** Every file under `dir` whose bytes hold `needle`, relative to `dir`. */
function filesHolding(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && readFileSync(path).includes(needle))
        hits.push(relative(dir, path));
    }
  };
  walk(dir);
  return hits.sort();
}

describe('canary: forget leaves no trace in the data dir or on the team server', () => {
  const base = realpathSync(tempHome('kl-canary-'));
  const home = join(base, 'data');
  const repo = join(base, 'src', 'payments-api');
  const other = join(base, 'src', 'notes');
  const serverHome = join(base, 'team-server');
  const schema = freshSchema();
  let env: NodeJS.ProcessEnv;
  let port: number;
  let collector: CollectorChild | undefined;
  let server: CollectorChild;
  let mcp: Client;
  let namespace: string;
  let bobToken: string;
  let teamUrl: string;
  /** Text that stays: in another project (local), and a record shared before the rounds. */
  const keepLocal = canary('keeplocal');
  const keepTeam = canary('keepteam');

  /** Rows of the team server (every table of its schema) whose text holds `needle`. */
  async function teamHolding(needle: string): Promise<string[]> {
    const url = inject('postgresUrl');
    const tables = await pgRows<{ name: string }>(
      url,
      schema,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
      [schema],
    );
    // One query over every table: each row as text (tsvector columns too).
    const union = tables
      .map(({ name }) => `SELECT '${name}' AS name FROM "${name}" t WHERE strpos(t::text, $1) > 0`)
      .join(' UNION ');
    const rows = await pgRows<{ name: string }>(url, schema, union, [needle]);
    return [...new Set(rows.map((row) => row.name))].sort();
  }

  const start = async () => {
    collector = await spawnCollector(env, port);
  };
  const stop = async () => {
    collector?.child.kill('SIGTERM');
    await collector?.exited;
    collector = undefined;
  };

  /** One hook as Claude Code runs it: the installed shim, the payload on stdin. */
  function hook(cwd: string, session: string, payload: Record<string, unknown>) {
    const run = spawnSync(process.execPath, [SHIM, 'claude-code'], {
      input: JSON.stringify({
        session_id: session,
        transcript_path: '/nonexistent/transcript.jsonl',
        cwd,
        permission_mode: 'default',
        ...payload,
      }),
      env,
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
  }

  /** A turn through the hooks (prompt, an edit, the answer) with `text` in what was said. */
  function turn(session: string, text: string) {
    const file = join(repo, 'src', 'webhooks', 'stripe.ts');
    hook(repo, session, {
      hook_event_name: 'UserPromptSubmit',
      prompt: `why does the stripe webhook reject the secret ${text}?`,
    });
    hook(repo, session, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: file, old_string: 'express.json()', new_string: 'express.raw()' },
      tool_response: { filePath: file, success: true },
      tool_use_id: `toolu_${session}`,
    });
    hook(repo, session, {
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: `The webhook read the signing secret ${text} from the wrong variable; src/webhooks/stripe.ts now verifies the raw body and the webhook tests pass (12/12).`,
    });
  }

  /** The agent's save through the MCP server; the saved record's id. */
  async function save(text: string): Promise<string> {
    const result = await mcp.callTool({
      name: 'save_observation',
      arguments: {
        title: `Webhook signing secret ${text}`,
        summary: `The staging webhook signs with ${text}; rotate it with the Stripe CLI.`,
        observation_type: 'decision',
        facts: [`staging secret is ${text}`],
      },
    });
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { record_id: string }).record_id;
  }

  /** `kiro-learn import` of an export holding an event and a record with `text`. */
  function importing(text: string, at = new Date().toISOString(), extra: object[] = []) {
    const event = {
      event_id: newEventId(),
      session_id: `import-${text}`,
      actor_id: 'alice',
      namespace,
      schema_version: 1,
      kind: 'note',
      body: { type: 'text', content: `imported note about ${text}` },
      valid_time: at,
      source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'test', project_path: repo },
    };
    const record = {
      record_id: newRecordId(),
      namespace,
      strategy: 'llm-summary',
      title: `Imported decision ${text}`,
      summary: `An imported record that names ${text}.`,
      facts: [],
      concepts: [],
      files_touched: [],
      observation_type: 'decision',
      source_event_ids: [event.event_id],
      created_at: at,
    };
    const file = join(base, `import-${text}.jsonl`);
    writeFileSync(
      file,
      [
        { type: 'header', format: 'kiro-learn-export', version: 1 },
        { type: 'event', event, received_at: at },
        { type: 'record', record },
        ...extra,
        { type: 'end' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const run = cli(['import', file], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    rmSync(file);
    return { event, record };
  }

  /**
   * A teammate's record holding `text`, shared to the team server (Bob's token, as his
   * collector pushes), which reaches Alice's prompt: her collector keeps a copy of it.
   */
  async function teammate(text: string, session: string) {
    const { projectId } = projectIdentity(repo);
    const record = {
      record_id: newRecordId(),
      namespace: `/actor/bob/project/${projectId}/`,
      strategy: 'llm-summary',
      title: `Payout signing key rotation ${text}`,
      summary: `Bob rotates the payout signing key ${text} every quarter with the ops script.`,
      facts: [],
      concepts: [],
      files_touched: [],
      observation_type: 'decision',
      source_event_ids: [newEventId()],
      created_at: new Date().toISOString(),
    };
    const pushed = await fetch(`${teamUrl}/v1/team/records/${record.record_id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${bobToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ project_id: projectId, revision: 1, record }),
    });
    expect(pushed.status).toBe(200);
    hook(repo, session, {
      hook_event_name: 'UserPromptSubmit',
      prompt: 'how often is the payout signing key rotated?',
    });
    await waitFor("the teammate's record kept here", async () =>
      filesHolding(home, text).length > 0 ? true : undefined,
    );
  }

  const onTeam = (needle: string) =>
    waitFor(`${needle} on the team server`, async () =>
      (await teamHolding(needle)).includes('memory_records') ? true : undefined,
    );
  const offTeam = (needle: string) =>
    waitFor(`${needle} gone from the team server`, async () =>
      (await teamHolding(needle)).length === 0 ? true : undefined,
    );
  const recordsHolding = async (needle: string) =>
    (
      await send(port, 'GET', `/v1/memories?namespace=${encodeURIComponent(namespace)}&limit=200`)
    ).json.items.filter((r: { summary: string; title: string }) =>
      `${r.title} ${r.summary}`.includes(needle),
    );

  /** What every round checks after its forget. */
  async function nothingHolds(needle: string, kept: { team: boolean } = { team: true }) {
    expect(filesHolding(home, needle)).toEqual([]);
    expect(filesHolding(serverHome, needle)).toEqual([]);
    await offTeam(needle);
    // The search reaches the data: what the scope did not cover is still found.
    expect(filesHolding(home, keepLocal)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^kiro-learn\.db/)]),
    );
    if (kept.team) expect(await teamHolding(keepTeam)).toContain('memory_records');
  }

  beforeAll(async () => {
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    for (const dir of [repo, other, home, serverHome]) mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', REMOTE]);
    writeFileSync(join(other, 'package.json'), '{}');

    // The team server: a collector on PostgreSQL.
    const serverPort = await freePort();
    const serverEnv = teamServerEnv(serverHome, serverPort, schema);
    server = await spawnCollector(serverEnv, serverPort);
    cleanups.push(async () => {
      await server.stop();
    });
    const serverUrl = `http://127.0.0.1:${serverPort}`;
    const member = (name: string) => {
      const added = cli(['team', 'add-member', name], serverEnv);
      expect(added.code).toBe(0);
      return added.stdout.trim().split('\n').at(-1)!;
    };
    const token = member('alice');
    bobToken = member('bob');
    teamUrl = serverUrl;

    // Alice's machine: a collector on SQLite, joined to the team, her repository shared.
    port = await freePort();
    env = envFor(home, port, { KIRO_LEARN_ACTOR: 'alice', HOME: join(base, 'home') });
    delete env['KIRO_LEARN_STORAGE_URL'];
    writeMemberSettings(home);
    namespace = projectIdentity(repo, { env }).namespace;
    const joined = cli(['team', 'join', serverUrl, '--token', token], env);
    expect(joined.stderr).toBe('');
    expect(joined.code).toBe(0);
    await start();
    cleanups.push(stop);
    const shared = cli(['team', 'share'], env, repo);
    expect(shared.stderr).toBe('');
    expect(shared.code).toBe(0);

    mcp = new Client({ name: 'canary-test', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MCP],
        cwd: repo,
        env: env as Record<string, string>,
      }),
    );
    cleanups.push(() => mcp.close());

    hook(other, 'notes-1', {
      hook_event_name: 'UserPromptSubmit',
      prompt: `remember ${keepLocal}`,
    });
    await save(keepTeam);
    await onTeam(keepTeam);
    expect(filesHolding(home, keepLocal)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^kiro-learn\.db/)]),
    );
  }, 180_000);

  it('--record: a record saved through MCP and shared', async () => {
    const secret = canary('record');
    const id = await save(secret);
    await onTeam(secret);
    expect(filesHolding(home, secret)).not.toEqual([]);
    const forgot = cli(['forget', '--record', id, '--yes'], env);
    expect(forgot.stderr).toBe('');
    // The note event the save was traced to holds the same text: it goes with the record.
    expect(forgot.stdout).toMatch(/forgot 1 event, 1 memory/);
    await nothingHolds(secret);
  }, 180_000);

  it('--event: a prompt through the hooks (and its retrieval, logged)', async () => {
    const secret = canary('event');
    hook(repo, 'event-1', {
      hook_event_name: 'UserPromptSubmit',
      prompt: `what signs the stripe webhook with ${secret}?`,
    });
    const events = (
      await send(port, 'GET', `/v1/events?namespace=${encodeURIComponent(namespace)}&limit=200`)
    ).json.items as Array<{ event_id: string; body: unknown }>;
    const prompt = events.find((e) => JSON.stringify(e.body).includes(secret));
    expect(prompt).toBeDefined();
    expect(filesHolding(home, secret)).not.toEqual([]);
    expect(cli(['forget', '--event', prompt!.event_id, '--yes'], env).code).toBe(0);
    await nothingHolds(secret);
  }, 180_000);

  it('--session: a turn through the hooks, the record extracted from it and its shared copy', async () => {
    const secret = canary('session');
    turn('session-1', secret);
    await waitFor('the extracted record', async () =>
      (await recordsHolding(secret)).length > 0 ? true : undefined,
    );
    await onTeam(secret);
    const forgot = cli(['forget', '--session', 'session-1', '--yes'], env);
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toMatch(/forgot 3 events/);
    await nothingHolds(secret);
  }, 180_000);

  it('--before: an import of last year, its record shared', async () => {
    const secret = canary('before');
    importing(secret, '2025-03-01T10:00:00.000Z');
    await onTeam(secret);
    const forgot = cli(['forget', '--before', '2025-06-01', '--yes'], env);
    expect(forgot.code).toBe(0);
    await nothingHolds(secret);
  }, 180_000);

  it("--project: hooks, MCP, import, team share, a teammate's record, backups, a database set aside by restore, a gc file and the spool of a stopped collector", async () => {
    const secret = canary('project');
    const theirs = canary('projectteammate');
    await teammate(theirs, 'project-0');
    turn('project-1', secret);
    await save(secret);
    importing(secret, new Date().toISOString(), [
      // A record earlier versions wrote for a turn that only asked: gc saves it to a file.
      {
        type: 'record',
        record: {
          record_id: newRecordId(),
          namespace,
          strategy: 'builtin',
          title: `Asked about ${secret}`,
          summary: `Request: what is ${secret}\nNo tools were used.`,
          facts: [],
          concepts: [],
          files_touched: [],
          observation_type: 'session_summary',
          source_event_ids: [newEventId()],
          created_at: new Date().toISOString(),
        },
      },
    ]);
    await waitFor('the extracted record', async () =>
      (await recordsHolding(secret)).length >= 3 ? true : undefined,
    );
    await onTeam(secret);
    const gc = cli(['gc'], env);
    expect(gc.stdout).toMatch(/saved them first to .*gc/);
    // The copies of the database kiro-learn makes: a daily backup and one without a name.
    const daily = join(home, 'backups', 'daily-20260101T030000Z.db');
    expect((await send(port, 'POST', '/v1/backup', { body: { path: daily } })).status).toBe(200);
    expect(cli(['backup'], env).code).toBe(0);
    // The collector stops; a restore of the daily backup sets the database aside; the
    // next prompt waits in the spool.
    await stop();
    const restored = cli(['restore', daily], env);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    hook(repo, 'project-2', {
      hook_event_name: 'UserPromptSubmit',
      prompt: `is ${secret} still in use?`,
    });
    const held = filesHolding(home, secret);
    for (const where of [
      /^kiro-learn\.db$/,
      /^kiro-learn\.db\.before-restore-/,
      /^backups\/daily-/,
      /^backups\/kiro-learn-/,
      /^gc\//,
      /^spool\//,
    ]) {
      expect(held, String(where)).toEqual(expect.arrayContaining([expect.stringMatching(where)]));
    }

    const forgot = cli(['forget', '--project', repo, '--yes'], env);
    expect(forgot.stderr).toBe('');
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toContain('rewrote backups/daily-20260101T030000Z.db without it');
    expect(forgot.stdout).toMatch(/rewrote kiro-learn\.db\.before-restore-\S+ without it/);
    expect(forgot.stdout).toMatch(
      /deleted gc\/\S+-question-only-records\.jsonl \(every record in it was forgotten\)/,
    );
    // Started again, the collector tells the team server what went.
    await start();
    await nothingHolds(secret, { team: false });
    expect(await teamHolding(keepTeam)).toEqual([]);
    // The teammate's record stays theirs on the team server; no copy of it stays here.
    expect(filesHolding(home, theirs)).toEqual([]);
  }, 240_000);

  it("--all: hooks, MCP, import, team share and a teammate's record", async () => {
    const secret = canary('all');
    const theirs = canary('allteammate');
    await teammate(theirs, 'all-0');
    turn('all-1', secret);
    await save(secret);
    importing(secret);
    await onTeam(secret);
    expect(filesHolding(home, secret)).not.toEqual([]);
    expect(cli(['forget', '--all', '--yes'], env).code).toBe(0);
    expect(filesHolding(home, secret)).toEqual([]);
    expect(filesHolding(home, keepLocal)).toEqual([]);
    expect(filesHolding(home, theirs)).toEqual([]);
    await offTeam(secret);
    expect(filesHolding(serverHome, secret)).toEqual([]);
  }, 180_000);
});
