import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScrubber, scrubText, scrubValue } from './scrub.js';

// Property tests: generated secrets in generated surroundings never survive, and
// generated ordinary code that merely names a secret comes back byte for byte.

const alnum = (min: number, max: number) =>
  fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
const urlsafe = (n: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${n}}$`));

/** A credential-looking value: random letters and digits, mixed case, some digits. */
const randomValue = alnum(8, 28).map((s) => `${s}Q7x9`);

/** Secrets with a recognisable shape, as `[secret, how it is written]`. */
const shaped = fc.oneof(
  alnum(36, 36).map((s) => `ghp_${s}`),
  fc.stringMatching(/^[A-Z0-9]{16}$/).map((s) => `AKIA${s}`),
  urlsafe(35).map((s) => `AIza${s}`),
  alnum(34, 34).map((s) => `hf_${s}`),
  fc.tuple(urlsafe(22), urlsafe(43)).map(([a, b]) => `SG.${a}.${b}`),
  alnum(24, 40).map((s) => `xoxb-${s}`),
  alnum(24, 40).map((s) => `sk_live_${s}`),
  alnum(30, 40).map((s) => `glpat-${s}`),
);

const secretNames = [
  'GITHUB_TOKEN',
  'NPM_TOKEN',
  'OPENAI_API_KEY',
  'CLIENT_SECRET',
  'DB_PASSWORD',
  'password',
  'token',
  'api_key',
  'apiKey',
  'client_secret',
  'accessToken',
  'passphrase',
];

/** A value assigned to a secret-named variable, in the ways people write it down. */
const assigned = fc
  .tuple(fc.constantFrom(...secretNames), randomValue, fc.integer({ min: 0, max: 6 }))
  .map(([name, value, style]) => {
    const upper = name.toUpperCase();
    const text = [
      `${upper}=${value}`,
      `export ${upper}=${value}`,
      `${name}: "${value}"`,
      `${name} = '${value}'`,
      JSON.stringify({ [name]: value }),
      `--${name.toLowerCase()}=${value}`,
      `${name}: ${value}`,
    ][style]!;
    return { value, text };
  });

const basicAuth = fc.tuple(fc.stringMatching(/^[a-z]{3,10}$/), randomValue).map(([user, pass]) => ({
  value: btoa(`${user}:${pass}`),
  text: `Authorization: Basic ${btoa(`${user}:${pass}`)}`,
}));

const secretInText = fc.oneof(
  shaped.map((value) => ({ value, text: value })),
  assigned,
  basicAuth,
);

/** Surrounding prose or code, kept apart from the secret by white space. */
const surrounding = fc.string({ maxLength: 40 });

describe('a secret never survives', () => {
  it('in free text, whatever surrounds it', () => {
    fc.assert(
      fc.property(surrounding, secretInText, surrounding, (before, { value, text }, after) => {
        const out = scrubText(`${before} ${text}\n${after}`);
        expect(out).not.toContain(value);
      }),
      { numRuns: 400 },
    );
  });

  it('inside JSON values at any depth, and under secret-named keys', () => {
    fc.assert(
      fc.property(secretInText, fc.constantFrom(...secretNames), (secret, key) => {
        const out = JSON.stringify(
          scrubValue({ a: [{ b: secret.text }], [key]: secret.value, c: `x ${secret.text}` }),
        );
        expect(out).not.toContain(secret.value);
      }),
      { numRuns: 200 },
    );
  });

  it('with extra patterns from the settings', () => {
    const scrubber = createScrubber({ extraPatterns: [{ pattern: 'ACME-[0-9]{6}' }] });
    fc.assert(
      fc.property(surrounding, fc.stringMatching(/^[0-9]{6}$/), surrounding, (a, n, b) => {
        expect(scrubber.text(`${a}ACME-${n}${b}`)).not.toContain(`ACME-${n}`);
      }),
    );
  });
});

const identifier = fc.stringMatching(/^[a-z][a-z]{0,7}$/);
const constant = fc.stringMatching(/^[A-Z][A-Z_]{0,10}$/);

/** Right-hand sides that are code, not literals. */
const codeExpression = fc.oneof(
  fc.tuple(identifier, identifier).map(([f, a]) => `${f}(${a})`),
  constant.map((c) => `process.env.${c}`),
  constant.map((c) => `os.environ["${c}"]`),
  fc.tuple(identifier, identifier).map(([o, p]) => `${o}.${p}`),
  identifier.map((f) => `await ${f}()`),
  constant.map((c) => `$${c}`),
  identifier.map((i) => `\${${i}}`),
  constant.map((c) => `\${{ secrets.${c} }}`),
  fc.constantFrom('string', 'None', 'null', 'undefined', 'true', '""', "''", 'str', 'T2', '42'),
  fc.tuple(identifier, identifier).map(([c, a]) => `new ${c}(${a})`),
  identifier.map((i) => `${i}[0]`),
);

const codeLine = fc
  .tuple(
    fc.constantFrom('', 'const ', 'let ', 'var ', 'self.', 'this.', 'export const ', '  '),
    fc.constantFrom(...secretNames, 'sortKey', 'primary_key', 'cache_key', 'MAX_TOKENS'),
    fc.constantFrom(' = ', ': ', ' := ', ' == ', ' === ', ' != ', '='),
    codeExpression,
    fc.constantFrom('', ';', ',', ' {', ')'),
  )
  .map((parts) => parts.join(''));

describe('ordinary code survives untouched', () => {
  it('assignments of code to secret-named variables', () => {
    fc.assert(
      fc.property(codeLine, (line) => {
        expect(scrubText(line)).toBe(line);
      }),
      { numRuns: 1000 },
    );
  });

  it('prose and code without secret names', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcdefxyz ABC_:=./-(){}[]"\'\n0123456789') }),
        (text) => {
          expect(scrubText(text)).toBe(text);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('linear time on hostile input', () => {
  // Each of these made an earlier pattern rescan the rest of its run from every
  // position: 80 KB took 40 s. These are 256 KiB each; the suite's hang guard is the bound.
  it.each([
    'a.',
    'a-',
    'eyJab-',
    'password=',
    '"token": "',
    'Basic ',
    '-u a:',
    'ab://',
    'x_key ',
    'key="\\',
    '<private ',
    'sk-',
  ])('%j repeated', (unit) => {
    const text = unit.repeat(Math.ceil((256 * 1024) / unit.length));
    expect(typeof scrubText(text)).toBe('string');
  });
});
