import { teamNamespace } from '@kiro-learn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeamClient, TeamError } from '../src/index.js';
import { PROJECT, record, startTeamServer, type TeamServer } from './server.js';

// The wire contract end to end: the package's client against the package's routes, on a
// real HTTP server and a real SQLite store.
let server: TeamServer;
let alice: string;
let bob: string;
let lead: string;
let other: string;
beforeAll(async () => {
  server = await startTeamServer('the-servers-own-token');
  alice = await server.addMember('alice');
  bob = await server.addMember('bob');
  lead = await server.addMember('lead', 'core', 'admin');
  other = await server.addMember('olga', 'elsewhere');
});
afterAll(() => server.close());

const client = (token: string) => createTeamClient({ url: `${server.url}/`, token });

async function failure(promise: Promise<unknown>): Promise<TeamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TeamError);
  return error as TeamError;
}

describe('team client ↔ team routes', () => {
  it('whoami names the member, their team and role', async () => {
    expect(client(alice).url).toBe(server.url);
    expect(await client(alice).whoami()).toEqual({
      team: 'core',
      member: 'alice',
      role: 'member',
      version: '1.2.3',
    });
    expect((await client(lead).whoami()).role).toBe('admin');
  });

  it('an unknown token is refused with 401, retryable, and says what to do', async () => {
    const error = await failure(client('klm_not-a-member').whoami());
    expect(error.code).toBe('refused');
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ask a team admin');
  });

  it('the server’s own token is no member: 403, for good', async () => {
    const error = await failure(client('the-servers-own-token').whoami());
    expect(error.status).toBe(403);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("send a member's token");
  });

  it('a server that is not there is unreachable, retryable', async () => {
    const gone = await startTeamServer();
    const url = gone.url;
    await gone.close();
    const error = await failure(createTeamClient({ url, token: alice }).whoami());
    expect(error.code).toBe('unreachable');
    expect(error.status).toBeUndefined();
    expect(error.retryable).toBe(true);
  });

  it('a push is stored once per revision, under the team, and found by search and recent with its author', async () => {
    const shared = record({ title: 'Webhook signatures need the raw request body' });
    expect(await client(alice).putRecord(PROJECT, 1, shared)).toEqual({ stored: true });
    expect(await client(alice).putRecord(PROJECT, 1, shared)).toEqual({ stored: false });
    const stored = await server.storage.getRecord(shared.record_id);
    expect(stored?.namespace).toBe(teamNamespace('core', PROJECT));

    const hits = await client(bob).search(PROJECT, 'webhook signatures raw body', 5);
    expect(hits.map((h) => [h.record.record_id, h.author])).toContainEqual([
      shared.record_id,
      'alice',
    ]);
    expect(hits[0]!.score).toBeGreaterThan(0);
    const recent = await client(bob).recent(PROJECT, 5);
    expect(recent.map((h) => h.record.record_id)).toContain(shared.record_id);
    // Another team sees nothing of it, whichever project it names.
    expect(await client(other).search(PROJECT, 'webhook signatures raw body', 5)).toEqual([]);
    expect(await client(other).recent(PROJECT, 5)).toEqual([]);
  });

  it('only the author or an admin may change or delete a record; a deleted one is gone for good', async () => {
    const shared = record();
    await client(alice).putRecord(PROJECT, 1, shared);
    const edit = await failure(client(bob).putRecord(PROJECT, 2, { ...shared, title: 'Mine now' }));
    expect(edit.status).toBe(403);
    expect(edit.retryable).toBe(false);
    expect(edit.message).toContain('was shared by alice');
    expect((await failure(client(bob).deleteRecord(shared.record_id))).status).toBe(403);

    expect(
      await client(lead).putRecord(PROJECT, 2, { ...shared, title: 'Edited by the lead' }),
    ).toEqual({ stored: true });
    await client(lead).deleteRecord(shared.record_id);
    // A later edit from the author's machine does not bring it back; the outbox takes it as done.
    expect(await client(alice).putRecord(PROJECT, 3, shared)).toEqual({
      stored: false,
      gone: true,
    });
    // Deleting what the team does not have counts as deleted.
    await client(alice).deleteRecord(record().record_id);
  });

  it('a record the server finds invalid is refused for good with the reasons', async () => {
    const error = await failure(client(alice).putRecord(PROJECT, 1, record({ title: '' })));
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^team server refused record mr_\w+ with 400: invalid team record/,
    );
  });
});

describe('team routes, as any HTTP client sees them', () => {
  it('without a member token: 401 with WWW-Authenticate and the {error} shape', async () => {
    const reply = await fetch(`${server.url}/v1/team/recent?project=${PROJECT}`);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    expect(await reply.json()).toEqual({
      error:
        'a member token is required: send Authorization: Bearer <token from kiro-learn team add-member>',
    });
  });

  it('a body whose record_id is not the path’s is refused with details', async () => {
    const shared = record();
    const reply = await fetch(`${server.url}/v1/team/records/${record().record_id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${alice}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ project_id: PROJECT, revision: 1, record: shared }),
    });
    expect(reply.status).toBe(400);
    const body = (await reply.json()) as { error: string; details: Record<string, string> };
    expect(body.error).toBe('invalid team record');
    expect(body.details['record.record_id']).toMatch(/^must be the record_id of the path/);
  });

  it('a project id that is no namespace part is refused', async () => {
    const reply = await fetch(`${server.url}/v1/team/recent?project=a/b`, {
      headers: { Authorization: `Bearer ${alice}` },
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: string }).error).toBe('invalid query');
  });
});
