/**
 * The built-in secret shapes the scrubber redacts, and the rules that tell a secret
 * assignment (`GITHUB_TOKEN=ab12…`, `"password": "…"`) from ordinary code that merely
 * names one (`const token = getToken();`, `password: string;`).
 *
 * Every pattern is linear in its input: a pattern that can start inside a run of the
 * characters it repeats is anchored with a look-behind, so a 1 MiB body of `a.a.a.…`
 * cannot make it rescan the run from every position.
 */

/** One secret shape: matches are replaced by `[REDACTED:<kind>]`. */
export interface ScrubPattern {
  /** Short name shown in the replacement, e.g. `github_token`. */
  kind: string;
  /**
   * What to redact. With a capture group named `keep`, that part of the match stays
   * (a `password=` prefix, `Bearer `), and one named `after` stays after the redaction
   * (a closing quote), so the text still reads naturally.
   */
  pattern: RegExp;
  /**
   * Decides, per match, whether it is a secret; a match it refuses is left as it is.
   * Absent: every match is a secret.
   */
  accept?: (groups: Readonly<Record<string, string | undefined>>) => boolean;
  /**
   * A cheap regular expression source that matches (case-insensitively) wherever
   * `pattern` could: the scrubber's one pass over clean text. Default: `pattern`'s source.
   */
  hint?: string;
}

const NOT_REDACTED = '(?!\\[REDACTED)';

/** Names that hold a secret whatever their value looks like (quoted or plain). */
const STRONG_NAME =
  /(?:passw(?:or)?d|passphrase|secret|[_.-]pwd|(?:api|access|auth|private|client|refresh|session|bearer|csrf|secret)[_.-]?(?:key|token)|^token)$/i;
/** Names that hold a secret only when the value looks random: `*_TOKEN`, `*_KEY`, `fooKey`. */
const GENERIC_NAME = /(?:[_.-](?:[kK][eE][yY]|[tT][oO][kK][eE][nN])|[a-z0-9](?:Key|Token))$/;
/** Environment names that only look like secrets (`PWD` is the working directory). */
const NOT_SECRET_NAME = /^(?:o?ldpwd|pwd)$/i;

/** Values that stand for a secret rather than being one: references, types, placeholders. */
const PLACEHOLDER =
  /^(?:\$[{(]?[A-Za-z_][\w.]*[})]?|\{\{.*\}\}|<[^<>]*>|%[^%\s]*%|\*+|x{3,}|\.{3}|…|null|none|nil|undefined|true|false|string|str|number|int|integer|bool|boolean|any|unknown|bytes|optional|required|secret|password|token|env|await|new|yield|typeof|function|async|lambda|self|this|require|import|not|process\.env\..*|os\.environ.*)$/i;

/** An identifier or member path: a variable, not a literal (`confirm`, `self.secret_key`). */
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/**
 * Whether a value looks like a generated credential rather than a word, a path or a
 * cache key: mixed case with digits, long hex, or long with several digits.
 */
function looksRandom(value: string): boolean {
  if (value.length < 12 || !/^[A-Za-z0-9_\-+/=.~:]+$/.test(value)) return false;
  if (/^(?:\.{0,2}\/|[a-z][a-z0-9+.-]*:\/\/)/i.test(value)) return false; // a path or URL
  const digits = value.replace(/\D/g, '').length;
  if (/^[0-9a-f]{32,}$/i.test(value)) return true;
  if (/[a-z]/.test(value) && /[A-Z]/.test(value) && digits >= 1) return true;
  return value.length >= 24 && digits >= 4 && /[a-z]/i.test(value);
}

type NameKind = 'strong' | 'generic' | undefined;

/** How strongly a name (an assignment target or an object key) suggests a secret. */
export function secretName(name: string): NameKind {
  const bare = name.replace(/^[-'"\\]+|['"\\]+$/g, '');
  if (NOT_SECRET_NAME.test(bare)) return undefined;
  if (STRONG_NAME.test(bare)) return 'strong';
  if (GENERIC_NAME.test(bare)) return 'generic';
  return undefined;
}

/**
 * Whether `value`, assigned to a name of kind `kind`, is a secret. `quoted`: it was a
 * string literal. `shell`: a `NAME=value` environment assignment (no spaces, upper-case
 * name), where a plain word is a literal rather than a variable.
 */
export function isSecretValue(
  kind: NameKind,
  value: string,
  quoted: boolean,
  shell = false,
  moreOnLine = false,
  name = '',
): boolean {
  if (!kind || value === '' || value.startsWith('[REDACTED') || PLACEHOLDER.test(value)) {
    return false;
  }
  if (
    name !== '' &&
    value.toLowerCase() === name.replace(/^[-'"\\]+|['"\\]+$/g, '').toLowerCase()
  ) {
    return false; // an enum: `invalid_key: "invalid_key"`
  }
  if (quoted) return kind === 'strong' || looksRandom(value);
  // Plain values are where code lives: calls, indexing, member paths, comparisons.
  if (/[()[\]{}<>]/.test(value) || /^[=>!&|$%@*`\\]/.test(value)) return false;
  // Short plain words and numbers are type parameters and settings (`privateKey: T2;`).
  if (value.length < 4 || (!shell && /^\d+$/.test(value) && value.length < 6)) return false;
  const identifier = IDENTIFIER_PATH.test(value);
  if (identifier && value.includes('.') && (!shell || !/\d/.test(value))) return false; // a.b
  if (identifier && !shell && !/\d/.test(value)) {
    if (/[a-z][A-Z]/.test(value)) return false; // camelCase: `password = confirmPassword`
    if (/passw|secret|token|key|pwd/i.test(value)) return false; // `secret_key = secret_key`
    // A plain word followed by more words is prose or code ("a CSRF token: a cookie …").
    return kind === 'strong' && !moreOnLine;
  }
  if (kind === 'strong') return true;
  return looksRandom(value) || (shell && value.length >= 8 && /\d/.test(value));
}

function acceptAssignment(groups: Readonly<Record<string, string | undefined>>): boolean {
  const name = groups['name'] ?? '';
  const quoted = groups['open'] !== undefined;
  const value = groups['value'] ?? groups['plain'] ?? '';
  const shell = /^[A-Z][A-Z0-9_]*$/.test(name) && groups['sep'] === '=';
  return isSecretValue(secretName(name), value, quoted, shell, groups['tail'] !== undefined, name);
}

/**
 * `password=…`, `GITHUB_TOKEN=…`, `"api_key": "…"`, `--password=…`, `token := "…"`. A match
 * starts at the keyword, which the engine finds fast; the whole name is then read back by a
 * look-behind (starting every match at each word instead made these the slowest patterns).
 */
function assignment(kind: string, keyword: string): ScrubPattern {
  const name = `(?:${keyword})(?<=(?<![A-Za-z0-9_.$-])(?<name>[A-Za-z0-9_.-]{0,64}(?:${keyword})))`;
  const sep = `(?<sep>[ \\t]*(?::=|=(?![=>~])|:(?![:=]))[ \\t]*)`;
  // A quoted value runs to its closing quote (escapes allowed); a plain one to a delimiter.
  const quotedValue = `(?<open>\\\\?["'])(?<value>(?:(?!\\k<open>)(?:\\\\[^\\n]|[^\\\\\\n]))+)(?<after>\\k<open>)`;
  // `tail`: what follows on the line, to tell `password: hunter` from prose ("token: binding 0.0.0.0").
  const plainValue = `(?<plain>[^\\s"'\`,;&|]+)(?=(?<tail>[ \\t]+\\S)?)`;
  return {
    kind,
    pattern: new RegExp(
      `(?<keep>${name}(?:\\\\?["'])?${sep})${NOT_REDACTED}(?:${quotedValue}|${plainValue})`,
      'gi',
    ),
    accept: acceptAssignment,
    hint: `(?:${keyword})(?:\\\\?["'])?[ \\t]*[:=]`,
  };
}

/** A credential written as a variable (`Bearer $TOKEN`, `${token}`, `<token>`) is not one. */
function notReference(groups: Readonly<Record<string, string | undefined>>): boolean {
  return !/^(?:\$|<[^>]*>|\{\{)/.test(groups['value'] ?? '');
}

/** A `Basic` credential decodes to `user:password`. */
function isBasicCredential(groups: Readonly<Record<string, string | undefined>>): boolean {
  try {
    const decoded = atob(groups['value'] ?? '');
    return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
  } catch {
    return false;
  }
}

/**
 * Built-in secret shapes, most specific first (an Anthropic key also looks like an
 * OpenAI one). Context-free shapes have a distinctive prefix; shapes that are plain
 * high-entropy strings (AWS secret keys) need a keyword next to them, so a 40-hex git
 * SHA survives.
 */
export const SECRET_PATTERNS: readonly ScrubPattern[] = [
  {
    kind: 'private_key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
  },
  { kind: 'aws_access_key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    kind: 'aws_secret_key',
    pattern:
      /(?<keep>\baws_?secret(?:_?access)?_?key["']?\s*[:=]\s*["']?|\bsecret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
  },
  {
    kind: 'github_token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { kind: 'gitlab_token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'npm_token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'slack_webhook',
    pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+/g,
  },
  { kind: 'stripe_key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'google_api_key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: 'huggingface_token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9_])/g },
  {
    kind: 'sendgrid_key',
    pattern: /(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}(?![A-Za-z0-9_-])/g,
  },
  { kind: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
  },
  {
    kind: 'basic_auth',
    pattern: new RegExp(
      `(?<keep>\\b(?:proxy-)?authorization["']?\\s*[:=]\\s*["']?basic\\s+)${NOT_REDACTED}(?<value>[^\\s"',;]+)`,
      'gi',
    ),
    accept: notReference,
  },
  {
    // A bare "Basic x": only when x decodes to user:password.
    kind: 'basic_auth',
    pattern: /(?<keep>\bbasic\s+)(?<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi,
    accept: isBasicCredential,
  },
  {
    kind: 'bearer_token',
    pattern: new RegExp(
      `(?<keep>\\b(?:proxy-)?authorization["']?\\s*[:=]\\s*["']?(?:bearer|token)\\s+)${NOT_REDACTED}(?<value>[^\\s"',;]+)`,
      'gi',
    ),
    accept: notReference,
  },
  {
    // A bare "Bearer x" needs a token-like word (long, with a digit): "bearer of bad news" stays.
    kind: 'bearer_token',
    pattern: /(?<keep>\bbearer\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/gi,
  },
  {
    // Starts at `://` (fast to find); the scheme before it is a look-behind.
    kind: 'url_password',
    pattern: new RegExp(
      `(?<keep>://(?<=(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}://)[^\\s:@/[\\]]+:)${NOT_REDACTED}[^\\s@/]+(?=@)`,
      'gi',
    ),
    hint: '://[^\\s:@/]+:',
  },
  {
    // curl -u user:password, --user=user:password
    kind: 'password',
    pattern: new RegExp(
      `(?<keep>(?<![\\w-])(?:-u|--user)(?:[ \\t]+|=)["']?[^\\s:"'$]+:)${NOT_REDACTED}(?<value>[^\\s"']+)`,
      'g',
    ),
    accept: notReference,
  },
  assignment('password', 'passw(?:or)?d|passphrase|pwd'),
  assignment('secret', 'secret|token|key'),
];
