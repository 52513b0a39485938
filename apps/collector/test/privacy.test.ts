import { readFileSync } from 'node:fs';
import { type EventBody, newEventId, newRecordId } from '@kiro-learn/schema';
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
    const record = {
      record_id: newRecordId(),
      namespace: NS,
      strategy: 'mcp_observation',
      title: 'Deploy key <private>my-diary-entry</private>',
      summary: 'Rotated AKIAIOSFODNN7EXAMPLE after the leak',
      facts: ['password=hunter2hunter2'],
      concepts: ['ACME-998877'],
      files_touched: ['deploy.sh'],
      observation_type: 'decision',
      source_event_ids: [newEventId()],
      created_at: new Date().toISOString(),
    };
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
});
