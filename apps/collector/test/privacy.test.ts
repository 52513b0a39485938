import { readFileSync } from 'node:fs';
import { type EventBody, newRecord, newRecordId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { makeEvent, NS, send, startCollector } from './helpers.js';

const SECRETS = [
  'AKIAIOSFODNN7EXAMPLE',
  'ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12',
  'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  'hunter2hunter2',
  'my-diary-entry',
  'ACME-998877',
];

/** Every byte SQLite wrote: the main file and the write-ahead log. */
function databaseBytes(dbPath: string): string {
  return ['', '-wal']
    .map((suffix) => {
      try {
        return readFileSync(dbPath + suffix).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('');
}

describe('privacy', () => {
  it('keeps secrets and <private> spans out of the database file, in every body shape', async () => {
    const c = await startCollector({ privacy: { extraPatterns: ['ACME-\\d{6}'] } });
    const bodies = [
      {
        type: 'text' as const,
        content: `key AKIAIOSFODNN7EXAMPLE and <private>my-diary-entry</private>`,
      },
      {
        type: 'message' as const,
        turns: [
          { role: 'user', content: 'push with ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12' },
          { role: 'assistant', content: 'ticket ACME-998877 <PRIVATE>unclosed my-diary-entry' },
        ],
      },
      {
        type: 'json' as const,
        data: {
          tool_input: { command: 'mysql --password=hunter2hunter2' },
          '<private>my-diary-entry</private>': 1,
          env: { ANTHROPIC_API_KEY: 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' },
        },
      },
    ] satisfies EventBody[];
    const ids: string[] = [];
    for (const body of bodies) {
      const event = makeEvent({ kind: 'prompt', body });
      ids.push(event.event_id);
      expect((await send(c.port, 'POST', '/v1/events?retrieve=true', { body: event })).status).toBe(
        200,
      );
    }
    const record = newRecord({
      namespace: NS,
      strategy: 'mcp_observation',
      title: 'Deploy key <private>my-diary-entry</private>',
      summary: 'Rotated AKIAIOSFODNN7EXAMPLE after the leak',
      facts: ['password=hunter2hunter2'],
      concepts: ['ACME-998877'],
      files_touched: ['deploy.sh'],
      observation_type: 'decision',
    });
    expect((await send(c.port, 'POST', '/v1/memories', { body: record })).status).toBe(200);
    const patch = await send(c.port, 'PATCH', `/v1/memories/${record.record_id}`, {
      body: { summary: 'now with ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12' },
    });
    expect(patch.status).toBe(200);

    const readBack = await send(c.port, 'GET', `/v1/events/${ids[0]}`);
    expect(readBack.json.body.content).toBe('key [REDACTED:aws_access_key] and [REDACTED]');

    const dbPath = c.dbPath;
    const whileOpen = databaseBytes(dbPath);
    await c.collector.close();
    const afterClose = databaseBytes(dbPath);
    for (const secret of SECRETS) {
      expect(whileOpen).not.toContain(secret);
      expect(afterClose).not.toContain(secret);
    }
    expect(afterClose).toContain('[REDACTED:github_token]');
    await c.close();
  });

  it('scrubs every stored string: ids, source fields, strategy, new secret kinds', async () => {
    const c = await startCollector({ privacy: { extraPatterns: ['ACME-\\d{6}'] } });
    const hidden = [
      'ACME-112233',
      'hunter22',
      'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
      'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
      'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr',
      'dXNlcjpodW50ZXIyMg',
      'q1w2e3r4t5y6u7i8o9p0',
      'tkn-4471',
      'dear-diary',
    ];
    const event = makeEvent({
      session_id: 'sess-ACME-112233',
      actor_id: 'dev password=hunter22',
      body: {
        type: 'text',
        content: [
          'maps key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
          'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
          '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',
          'curl -H "Authorization: Basic dXNlcjpodW50ZXIyMg=="',
          'GITHUB_TOKEN=q1w2e3r4t5y6u7i8o9p0 gh pr create',
          'got {"token": "tkn-4471"}',
          '<private reason="personal">dear-diary</private>',
        ].join('\n'),
      },
      source: {
        surface: 'kiro-cli',
        version: '1.0 ACME-112233',
        client_id: 'laptop password=hunter22',
        project_path: '/work/ACME-112233',
      },
    });
    expect((await send(c.port, 'POST', '/v1/events', { body: event })).status).toBe(200);
    const record = {
      record_id: newRecordId(),
      namespace: NS,
      strategy: 'ACME-112233',
      title: 'Strategy and title both scrubbed',
      summary: 'GITHUB_TOKEN=q1w2e3r4t5y6u7i8o9p0',
      facts: [],
      concepts: [],
      files_touched: [],
      observation_type: 'decision',
      source_event_ids: [event.event_id],
      created_at: new Date().toISOString(),
    };
    expect((await send(c.port, 'POST', '/v1/memories', { body: record })).status).toBe(200);
    const stored = await send(c.port, 'GET', `/v1/memories/${record.record_id}`);
    expect(stored.json.strategy).toBe('[REDACTED:custom]');
    const back = await send(c.port, 'GET', `/v1/events/${event.event_id}`);
    expect(back.json.session_id).toBe('sess-[REDACTED:custom]');
    expect(back.json.namespace).toBe(NS);

    await c.collector.close();
    const bytes = databaseBytes(c.dbPath);
    for (const secret of hidden) expect(bytes).not.toContain(secret);
    await c.close();
  });

  it('stores a valid record whose fields scrubbing lengthens, cut to their limits', async () => {
    const c = await startCollector();
    const record = newRecord({
      namespace: NS,
      strategy: 'mcp_observation',
      title: `${'t'.repeat(179)} AKIAIOSFODNN7EXAMPLE`, // 200 characters; 205 once scrubbed
      summary: 'summary',
      facts: [`${'f'.repeat(475)} password=hunter2hunter2`],
      observation_type: 'decision',
    });
    const saved = await send(c.port, 'POST', '/v1/memories', { body: record });
    expect(saved.status).toBe(200);
    const stored = (await send(c.port, 'GET', `/v1/memories/${record.record_id}`)).json;
    expect(stored.title).toHaveLength(200);
    expect(stored.title).toMatch(/ \[truncated by kiro-learn\]$/);
    expect(stored.facts[0]).toHaveLength(500);
    expect(JSON.stringify(stored)).not.toMatch(/AKIAIOSFODNN7EXAMPLE|hunter2hunter2/);

    const edited = await send(c.port, 'PATCH', `/v1/memories/${record.record_id}`, {
      body: { title: `${'e'.repeat(186)} password=abcd` },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.title).toHaveLength(200);
    await c.close();
  });

  it('refuses a namespace the scrubber would change, rather than merge projects', async () => {
    const c = await startCollector({ privacy: { extraPatterns: ['ACME-\\d{6}'] } });
    const event = makeEvent({ namespace: '/actor/dev/project/ACME-123456/' });
    const reply = await send(c.port, 'POST', '/v1/events', { body: event });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatch(/namespace/);
    await c.close();
  });
});
