import { describe, expect, it } from 'vitest';
import { EventSchema } from './event.js';
import { LIMITS, TRUNCATION_MARKER } from './limits.js';
import { MemoryRecordSchema } from './memory.js';
import {
  createScrubber,
  redactPrivate,
  scrubEvent,
  scrubRecord,
  scrubRecordPatch,
  scrubText,
  scrubValue,
} from './scrub.js';

// One file for every pattern the scrubber knows (a table of samples, then the rules that
// apply to all of them), so a new pattern is added in one place; hence its length.
//
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
  ['password', 'DB_PASSWORD: "correct horse battery"', 'horse battery'],
  ['basic_auth', 'curl -H "Authorization: Basic dXNlcjpodW50ZXIy" https://x', 'dXNlcjpodW50ZXIy'],
  ['basic_auth', "headers = {'Proxy-Authorization': 'basic YWRtaW46czNjcjN0'}", 'YWRtaW46czNjcjN0'],
  ['basic_auth', 'sent Basic YWRtaW46czNjcjN0 upstream', 'YWRtaW46czNjcjN0'],
  ['secret', 'GITHUB_TOKEN=abc123def456ghi789 gh release create', 'abc123def456ghi789'],
  ['secret', 'export NPM_TOKEN=f00ba4ba5e', 'f00ba4ba5e'],
  ['secret', 'SENTRY_AUTH_TOKEN="q1w2e3r4t5y6u7i8o9p0"', 'q1w2e3r4t5y6u7i8o9p0'],
  ['secret', 'STRIPE_WEBHOOK_SECRET=whsec_live_x', 'whsec_live_x'],
  ['secret', 'MAPS_KEY: Zx81Kq0Lm2Np4Rs6', 'Zx81Kq0Lm2Np4Rs6'],
  ['secret', 'const stripeKey = "rk9Qx2Lm8Zp4Wt6Yv1Bn3C";', 'rk9Qx2Lm8Zp4Wt6Yv1Bn3C'],
  ['secret', 'token := "s3cr3t-value"', 's3cr3t-value'],
  [
    'google_api_key',
    'maps.googleapis.com/?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
    'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
  ],
  [
    'huggingface_token',
    'huggingface-cli login --token hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
    'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
  ],
  [
    'sendgrid_key',
    '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 in the env',
    'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr',
  ],
  ['secret', 'response: {"token": "tkn-4471", "user": "bob"}', 'tkn-4471'],
  ['password', '{"password": "p@ss w0rd!"}', 'p@ss w0rd!'],
  ['secret', "{'api_key': 'k3y'}", 'k3y'],
  ['secret', 'escaped {\\"access_token\\": \\"ya29.a0AfH6S\\"}', 'ya29.a0AfH6S'],
  ['password', 'curl -u admin:hunter2 https://x', 'hunter2'],
  ['password', 'password: letmein', 'letmein'],
  ['password', 'DB_PWD=abc1', 'abc1'],
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
  // Ordinary code that names a secret without holding one.
  'if (password == confirm) return;',
  'const secret = getSecret();',
  'api_key = os.environ["API_KEY"]',
  'token = request.headers.get("x")',
  'const apiKey = process.env.API_KEY;',
  'password: string;',
  'password?: string | undefined;',
  'MAX_TOKENS = 4096',
  'PRIMARY_KEY = "id"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CI and template syntax, on purpose
  'secret_name: ${{ secrets.X }}',
  'let password = "";',
  'self.secret_key = secret_key',
  'const { password } = body;',
  'password: z.string().min(8),',
  'ACCESS_TOKEN_TTL=3600',
  'export GITHUB_TOKEN=$GH_TOKEN',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CI and template syntax, on purpose
  'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
  'secret=$(cat file)',
  'def check(password=None):',
  'function f(password = DEFAULT) {}',
  'x.secret = y.secret;',
  'const cacheKey = "user:123:profile";',
  'sortKey: "name",',
  'PWD=/home/me/project',
  'monkey = 5',
  'token := os.Getenv("TOKEN")',
  'if token != "" {',
  '<privateKey>',
  'const token = await getToken();',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CI and template syntax, on purpose
  'headers["Authorization"] = `Bearer ${token}`;',
  'Authorization: Bearer $TOKEN',
  'curl -u "$USER:$PASS" https://x',
  'privateKey: T2;',
  'readonly invalid_key: "invalid_key";',
  'expect(r.stderr).toMatch(/token: binding 0.0.0.0/);',
  'requests need a CSRF token: a double-submit cookie',
  'Most strings carry no secret: one union pass',
  'basic auth is configured below',
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
    ['a <private reason="diary">b</private> c', 'a [REDACTED] c'],
    ['a <Private  reason=\'x>y\' until="friday">b</PRIVATE > c', 'a [REDACTED] c'],
    ['a <private\n  reason="multi-line">b</private> c', 'a [REDACTED] c'],
    ['a <private reason="unterminated', 'a [REDACTED]'],
    ['a <privateKey>b</privateKey> c', 'a <privateKey>b</privateKey> c'],
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

  it('cuts a body that scrubbing lengthened past the limit back under it, longest strings first', () => {
    const line = 'ok=1 password=hunter22; ';
    const log = line.repeat(Math.floor((LIMITS.bodyBytes - 200) / line.length));
    const event = {
      event_id: '01JDQ00000000000000000000A',
      session_id: 's',
      actor_id: 'dev',
      namespace: '/actor/dev/project/p/',
      schema_version: 1 as const,
      kind: 'tool_use' as const,
      body: { type: 'json' as const, data: { tool: 'shell', output: log, exit: 0 } },
      valid_time: '2026-11-21T10:00:00.000Z',
      source: { surface: 'kiro-cli' as const, version: '1', client_id: 'c' },
    };
    expect(EventSchema.safeParse(event).success).toBe(true);
    const out = scrubEvent(event);
    // Still a valid event: it is stored, and later reads (extraction, import) accept it.
    expect(EventSchema.safeParse(out).success).toBe(true);
    const data = (out.body as { data: { tool: string; output: string; exit: number } }).data;
    expect(Buffer.byteLength(JSON.stringify(out.body))).toBeLessThanOrEqual(LIMITS.bodyBytes);
    expect(data.tool).toBe('shell');
    expect(data.exit).toBe(0);
    expect(data.output.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(data.output).not.toContain('hunter22');
    // The caller's event is left as it was.
    expect(event.body.data.output).toBe(log);
  });

  it('scrubs every free-text field of an event, not only the body', () => {
    const scrubber = createScrubber({
      extraPatterns: [{ pattern: 'ACME-\\d{6}', kind: 'ticket' }],
    });
    const event = {
      event_id: '01JD0000000000000000000000',
      session_id: 'sess-ACME-123456',
      actor_id: 'bob password=hunter22',
      namespace: '/actor/a/project/p/',
      schema_version: 1 as const,
      kind: 'note' as const,
      body: { type: 'text' as const, content: 'ok' },
      valid_time: '2026-11-22T00:00:00.000Z',
      source: {
        surface: 'api' as const,
        version: '1 <private>v</private>',
        client_id: 'ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ12',
        project_path: '/home/bob/ACME-654321',
      },
    };
    const out = scrubEvent(event, scrubber);
    expect(JSON.stringify(out)).not.toMatch(/ACME-\d|hunter22|ghp_|<private>/);
    expect(out).toMatchObject({
      session_id: 'sess-[REDACTED:ticket]',
      actor_id: 'bob password=[REDACTED:password]',
      namespace: event.namespace,
      source: { version: '1 [REDACTED]', project_path: '/home/bob/[REDACTED:ticket]' },
    });
    expect(EventSchema.safeParse(out).success).toBe(true);
  });

  it('keeps an event valid when scrubbing lengthens an id past its limit', () => {
    const long = 'pwd=ab '.repeat(18).trim(); // 125 characters, each value grows by 20
    const event = {
      event_id: '01JD0000000000000000000000',
      session_id: long,
      actor_id: 'a',
      namespace: '/actor/a/project/p/',
      schema_version: 1 as const,
      kind: 'note' as const,
      body: {
        type: 'message' as const,
        turns: [{ role: `${'x'.repeat(44)} password=abcd`, content: '' }],
      },
      valid_time: '2026-11-22T00:00:00.000Z',
      source: { surface: 'api' as const, version: '1', client_id: 'c' },
    };
    expect(EventSchema.safeParse(event).success).toBe(true);
    const out = scrubEvent(event, createScrubber({ extraPatterns: ['ab'] }));
    expect(out.session_id).toHaveLength(LIMITS.idLength);
    expect(EventSchema.safeParse(out).success).toBe(true);
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
      questions: ['Why is the token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB rejected?'],
      superseded_by: 'mr_01JD0000000000000000000001',
      superseded_reason: 'changed value: <private>old key</private>',
    });
    expect(JSON.stringify(record)).not.toMatch(
      /secret plan|AKIAIOSFODNN7EXAMPLE|hunter2|sk_live|ghp_1234|old key/,
    );
    expect(record.files_touched).toEqual(['src/a.ts']);
  });

  it('scrubs the strategy, and a record valid before scrubbing is valid after it', () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const record = {
      record_id: 'mr_01JD0000000000000000000000',
      namespace: '/actor/a/project/p/',
      strategy: `import ${secret}`,
      title: `${'t'.repeat(179)} ${secret}`, // 205 characters once scrubbed
      summary: `${'s'.repeat(3980)} pwd=abcdefgh`,
      facts: [`${'f'.repeat(479)} ${secret}`],
      concepts: [`${'c'.repeat(90)} ${secret}`.slice(0, 100)],
      files_touched: [`${'d/'.repeat(240)}${secret}`],
      observation_type: 'decision' as const,
      source_event_ids: ['01JD0000000000000000000000'],
      created_at: '2026-11-22T00:00:00.000Z',
    };
    expect(MemoryRecordSchema.safeParse(record).success).toBe(true);
    const out = scrubRecord(record);
    expect(JSON.stringify(out)).not.toContain(secret);
    expect(out.strategy).toBe('import [REDACTED:aws_access_key]');
    expect(out.title.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(MemoryRecordSchema.safeParse(out).success).toBe(true);
  });

  it('scrubs and fits a record edit the same way', () => {
    const patch = scrubRecordPatch({ title: `${'t'.repeat(186)} password=abcd`, facts: ['ok'] });
    expect(patch.title).toHaveLength(LIMITS.titleLength);
    expect(patch.title).not.toContain('abcd');
    expect(patch.facts).toEqual(['ok']);
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
