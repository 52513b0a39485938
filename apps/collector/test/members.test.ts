import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNamespace, newRecord } from '@kiro-learn/schema';
import { cliAsync as kiro } from '@kiro-learn/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Daemon, startDaemon } from '../src/daemon.js';
import { makeEvent, send } from './helpers.js';

const ADMIN_TOKEN = 'admin-token-of-the-team-server-0123456789';
let home: string;
let env: NodeJS.ProcessEnv;
let daemon: Daemon;
let port: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kl-members-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ token: ADMIN_TOKEN }));
  env = { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: '0' };
  daemon = await startDaemon({ env });
  port = Number(new URL(daemon.url).port);
});
afterAll(async () => {
  await daemon.stop();
  rmSync(home, { recursive: true, force: true });
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('team members', () => {
  it('add-member prints a token once; list shows team and role; the token reaches the team routes only; remove revokes at once', async () => {
    const added = await kiro(['team', 'add-member', 'alice'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Added alice to team default \(member\)/);
    const token = added.stdout.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^klm_[A-Za-z0-9_-]{43}$/);
    expect((await kiro(['team', 'add-member', 'alice'], env)).stderr).toMatch(
      /alice is already a member/,
    );
    const bad = await kiro(['team', 'add-member', 'no spaces'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/a member name is 1-64 letters/);
    // `:` marks a team's namespaces (/actor/team:<team>/…): never in a member's name.
    expect((await kiro(['team', 'add-member', 'team:core'], env)).code).toBe(2);
    const badTeam = await kiro(['team', 'add-member', 'zed', '--team', 'a b'], env);
    expect(badTeam.code).toBe(2);
    expect(badTeam.stderr).toMatch(/a team name is 1-64 letters/);
    expect(
      await kiro(['team', 'add-member', 'root', '--team', 'platform', '--admin'], env),
    ).toMatchObject({ code: 0, stdout: expect.stringMatching(/to team platform \(admin\)/) });

    const listed = await kiro(['team', 'list', '--json'], env);
    expect(
      JSON.parse(listed.stdout).map((m: { name: string; team: string; role: string }) => [
        m.name,
        m.team,
        m.role,
      ]),
    ).toEqual([
      ['alice', 'default', 'member'],
      ['root', 'platform', 'admin'],
    ]);
    const table = (await kiro(['team', 'list'], env)).stdout.split('\n');
    expect(table[0]).toMatch(/^name\s+team\s+role\s+added$/);
    expect(table[2]).toMatch(/^root\s+platform\s+admin\s+\d{4}-/);
    // Only the hash is stored.
    const db = readFileSync(join(home, 'kiro-learn.db')).toString('latin1');
    expect(db).not.toContain(token);

    // A member shares through the team routes; the rest of the API is the server's.
    expect(
      (await send(port, 'GET', '/v1/team/whoami', { headers: bearer(token) })).json,
    ).toMatchObject({ team: 'default', member: 'alice', role: 'member' });
    const event = makeEvent({ actor_id: 'mallory', namespace: buildNamespace('mallory', 'p') });
    const refused = await send(port, 'POST', '/v1/events', { body: event, headers: bearer(token) });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatch(/team routes only/);
    const record = newRecord({
      namespace: buildNamespace('alice', 'payments-api'),
      strategy: 'mcp_observation',
      title: 'Stripe webhooks need the raw body',
      summary: 'express.json() broke signature verification.',
    });
    expect(
      (await send(port, 'POST', '/v1/memories', { body: record, headers: bearer(token) })).status,
    ).toBe(403);

    // The server's own token still writes as the request says; no token, or another, is refused.
    const asAdmin = makeEvent({ actor_id: 'dev', namespace: buildNamespace('dev', 'p') });
    await send(port, 'POST', '/v1/events', { body: asAdmin, headers: bearer(ADMIN_TOKEN) });
    expect(
      (await send(port, 'GET', `/v1/events/${asAdmin.event_id}`, { headers: bearer(ADMIN_TOKEN) }))
        .json.namespace,
    ).toBe(buildNamespace('dev', 'p'));
    expect((await send(port, 'GET', '/v1/stats')).status).toBe(401);
    expect((await send(port, 'GET', '/v1/stats', { headers: bearer('klm_forged') })).status).toBe(
      401,
    );

    expect((await kiro(['team', 'remove', 'alice'], env)).stdout).toMatch(
      /Removed alice: their token no longer works/,
    );
    expect((await send(port, 'GET', '/v1/team/whoami', { headers: bearer(token) })).status).toBe(
      401,
    );
    expect((await kiro(['team', 'remove', 'alice'], env)).code).toBe(1);
  });
});
