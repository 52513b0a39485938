import { describe, expect, it } from 'vitest';
import {
  createScrubber,
  redactPrivate,
  scrubEvent,
  scrubRecord,
  scrubText,
  scrubValue,
} from './scrub.js';

// Samples are shaped like real credentials but made up (documented examples where a
// vendor publishes one).
const secrets: Array<[kind: string, text: string, secret: string]> = [
  ['aws_access_key', 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
  [
    'aws_secret_key',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  ],
  [
    'github_token',
    'git clone https://ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12@github.com/o/r',
    'ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12',
  ],
  [
    'github_token',
    'GH_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ',
  ],
  ['gitlab_token', 'token glpat-x7Yz9AbCdEfGhIjKlMnOp', 'glpat-x7Yz9AbCdEfGhIjKlMnOp'],
  [
    'npm_token',
    '//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    'npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  ],
  [
    'slack_token',
    'SLACK_BOT=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
    'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  ],
  [
    'slack_webhook',
    'post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now',
    'T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
  ],
  [
    'stripe_key',
    'Stripe.apiKey = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"',
    'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  ],
  [
    'openai_key',
    'OPENAI_API_KEY is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
    'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
  ],
  [
    'anthropic_key',
    'use sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbC for claude',
    'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbC',
  ],
  [
    'jwt',
    'cookie: session=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ],
  [
    'private_key',
    'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\nZm9vYmFy\n-----END RSA PRIVATE KEY-----\nafter',
    'MIIEowIBAAKCAQEA7bq',
  ],
  [
    'private_key',
    'truncated paste -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA',
    'b3BlbnNzaC1rZXktdjEAAAAA',
  ],
  ['bearer_token', 'curl -H "Authorization: Bearer abc.def-ghi" https://api', 'abc.def-ghi'],
  ['bearer_token', 'token is Bearer 9f8e7d6c5b4a39281706f5e4', '9f8e7d6c5b4a39281706f5e4'],
  ['url_password', 'DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal:5432/app', 's3cr3t-Pa55'],
  ['password', 'mysql -u root --password=hunter2 db', 'hunter2'],
  ['password', 'DB_PASSWORD: "correct horse"', 'correct'],
  ['secret', 'CLIENT_SECRET=0a1b2c3d4e5f', '0a1b2c3d4e5f'],
  ['secret', 'api_key = "live-123"', 'live-123'],
];

const nearMisses: string[] = [
  'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it', // a git SHA
  'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'the password is stored hashed with argon2', // no assignment
  'PASSWORD=\nnext line', // empty value
  'the bearer of bad news', // no token
  'run pip install scikit-learn and sk-learn', // too short for a key
  'task-runner-configuration-file-name-here', // "sk-" inside a word
  'http://localhost:8080/path?x=1', // URL without credentials
  'git@github.com:org/repo.git', // ssh remote, no password
  'AKIA is a prefix AWS uses', // too short
  'ghp_short', // too short
  'eyJhbGciOiJIUzI1NiJ9 alone is just a header',
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqh\n-----END PUBLIC KEY-----',
  'secretary of state', // keyword without assignment
  'userId=42&page=3',
];

describe('scrubText: secrets', () => {
  it.each(secrets)('redacts a %s', (kind, text, secret) => {
    const out = scrubText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(`[REDACTED:${kind}]`);
  });

  it.each(nearMisses)('leaves %j alone', (text) => {
    expect(scrubText(text)).toBe(text);
  });

  it('keeps the words around a redaction so the text still reads', () => {
    expect(scrubText('mysql --password=hunter2 -h db')).toBe(
      'mysql --password=[REDACTED:password] -h db',
    );
    expect(scrubText('Authorization: Bearer abcdefgh')).toBe(
      'Authorization: Bearer [REDACTED:bearer_token]',
    );
  });

  it('is idempotent', () => {
    for (const [, text] of secrets) {
      const once = scrubText(text);
      expect(scrubText(once)).toBe(once);
    }
  });
});

describe('redactPrivate', () => {
  it.each([
    ['a <private>b</private> c', 'a [REDACTED] c'],
    ['a <PRIVATE>b</Private> c', 'a [REDACTED] c'],
    ['a <private>b <private>c</private> d</private> e', 'a [REDACTED] e'],
    ['a <private>b and the rest', 'a [REDACTED]'],
    ['x <private>1</private> y <private>2</private> z', 'x [REDACTED] y [REDACTED] z'],
    ['stray </private> stays', 'stray </private> stays'],
    ['no tags', 'no tags'],
  ])('%j → %j', (input, output) => {
    expect(redactPrivate(input)).toBe(output);
  });
});

describe('scrubValue', () => {
  it('scrubs every string at any depth, keys included, without touching the input', () => {
    const input = {
      type: 'json',
      data: {
        cmd: 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
        list: ['<private>diary</private>', 7, null, true],
        '<private>name</private>': 'v',
        headers: { Authorization: 'Basic dXNlcjpwYXNz' },
        password: 'hunter2',
      },
    };
    const copy = structuredClone(input);
    const out = scrubValue(input);
    expect(input).toEqual(copy);
    expect(JSON.stringify(out)).not.toMatch(/AKIAIOSFODNN7EXAMPLE|diary|name|dXNlcjpwYXNz|hunter2/);
    expect(out.data.list).toEqual(['[REDACTED]', 7, null, true]);
    expect(out.data).toHaveProperty('[REDACTED]', 'v');
    expect(out.data.password).toBe('[REDACTED:password]');
  });
});

describe('scrubEvent and scrubRecord', () => {
  it('scrubs a message body and leaves ids alone', () => {
    const event = {
      event_id: '01JD0000000000000000000000',
      session_id: 's',
      actor_id: 'a',
      namespace: '/actor/a/project/p/',
      schema_version: 1 as const,
      kind: 'prompt' as const,
      body: {
        type: 'message' as const,
        turns: [{ role: 'user', content: 'my key is ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12' }],
      },
      valid_time: '2026-11-22T00:00:00Z',
      source: { surface: 'api' as const, version: '1', client_id: 'c' },
    };
    const out = scrubEvent(event);
    expect(out.event_id).toBe(event.event_id);
    expect(out.body).toEqual({
      type: 'message',
      turns: [{ role: 'user', content: 'my key is [REDACTED:github_token]' }],
    });
  });

  it('scrubs every text field of a record', () => {
    const record = scrubRecord({
      record_id: 'mr_01JD0000000000000000000000',
      namespace: '/actor/a/project/p/',
      strategy: 'builtin',
      title: 'Set <private>secret plan</private>',
      summary: 'Used AKIAIOSFODNN7EXAMPLE',
      facts: ['password=hunter2'],
      concepts: ['<private>x</private>'],
      files_touched: ['src/a.ts'],
      observation_type: 'decision',
      source_event_ids: ['01JD0000000000000000000000'],
      created_at: '2026-11-22T00:00:00Z',
      metadata: { note: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' },
    });
    expect(JSON.stringify(record)).not.toMatch(/secret plan|AKIAIOSFODNN7EXAMPLE|hunter2|sk_live/);
    expect(record.files_touched).toEqual(['src/a.ts']);
  });
});

describe('createScrubber', () => {
  it('applies extra patterns from settings', () => {
    const scrubber = createScrubber({
      extraPatterns: ['ACME-\\d{6}', { pattern: 'internal\\.example', kind: 'host', flags: 'i' }],
    });
    expect(scrubber.text('ticket ACME-123456 on INTERNAL.example.com')).toBe(
      'ticket [REDACTED:custom] on [REDACTED:host].com',
    );
    expect(scrubText('ticket ACME-123456')).toBe('ticket ACME-123456');
  });

  it('throws on an invalid extra pattern', () => {
    expect(() => createScrubber({ extraPatterns: ['(unclosed'] })).toThrow(SyntaxError);
  });
});
