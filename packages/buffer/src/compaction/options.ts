import { BufferError } from '../errors.js';

/**
 * What compaction knows events as. Finer than an event's `kind`: a failed tool use is an
 * `error`, and tool uses are told apart by what the tool did.
 */
export const RETENTION_KINDS = [
  'prompt',
  'turn_end',
  'error',
  'command',
  'file_write',
  'file_read',
  'search',
  'tool',
  'note',
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/**
 * `keep_full`: verbatim (huge string fields digested). `keep_structured`: a deterministic
 * preview (tool, path, command, exit status). `summarize_archive`: folded into the
 * summary chain, a marker stays. `drop`: a marker only.
 */
export const RETENTION_POLICIES = [
  'keep_full',
  'keep_structured',
  'summarize_archive',
  'drop',
] as const;
export type RetentionPolicy = (typeof RETENTION_POLICIES)[number];

/** How a project's backlog is compacted when its extraction prompt grows too large. */
export interface CompactionOptions {
  /** Compact at all (true). */
  enabled: boolean;
  /** Tokens one extraction prompt may carry (50 000, about the ACP extractor's 200 000 characters). */
  maxPromptTokens: number;
  /** Compact a batch whose rendered prompt exceeds this many tokens (0.75 × maxPromptTokens). */
  triggerTokens: number;
  /** Tokens of events one summarizer call gets (0.4 × maxPromptTokens); a larger archive runs as several passes. */
  summarizerTokens: number;
  /** The newest pending events of a project, never reduced (20). */
  protectedTail: number;
  /** Kinds never reduced, whatever `retention` says (prompt, error, turn_end). */
  critical: readonly RetentionKind[];
  /** Policy per kind, over the kind's default (KIND_POLICIES). */
  retention: Readonly<Partial<Record<RetentionKind, RetentionPolicy>>>;
  /** Policy of a kind with neither an override nor a default (summarize_archive). */
  defaultPolicy: RetentionPolicy;
  /** String fields of kept events longer than this many characters become a digest (2000). */
  digestChars: number;
  /** Every Nth pass rebuilds the summary prose from raw events instead of the previous prose (8; 0 never). */
  fullRewriteEvery: number;
  /** Tokens counted per event for its framing (12). */
  eventOverheadTokens: number;
}

/** Each kind's own policy, used when the user set none. */
export const KIND_POLICIES: Readonly<Partial<Record<RetentionKind, RetentionPolicy>>> =
  Object.freeze({ command: 'keep_structured', file_write: 'keep_structured' });

export const COMPACTION_DEFAULTS: Readonly<
  Omit<CompactionOptions, 'triggerTokens' | 'summarizerTokens'>
> = Object.freeze({
  enabled: true,
  maxPromptTokens: 50_000,
  protectedTail: 20,
  critical: Object.freeze(['prompt', 'error', 'turn_end'] as const),
  retention: Object.freeze({}),
  defaultPolicy: 'summarize_archive',
  digestChars: 2000,
  fullRewriteEvery: 8,
  eventOverheadTokens: 12,
});

const NUMBERS = [
  'maxPromptTokens',
  'triggerTokens',
  'summarizerTokens',
  'protectedTail',
  'digestChars',
  'fullRewriteEvery',
  'eventOverheadTokens',
] as const;

const isKind = (value: unknown): value is RetentionKind =>
  (RETENTION_KINDS as readonly unknown[]).includes(value);
const isPolicy = (value: unknown): value is RetentionPolicy =>
  (RETENTION_POLICIES as readonly unknown[]).includes(value);

/**
 * Checks compaction settings as a settings file gives them (any JSON), with the defaults
 * filled in. Returns `dot.path: message` lines, empty when valid; `path` prefixes them.
 */
export function checkCompactionOptions(given: unknown, path = 'compaction'): string[] {
  if (given === undefined) return [];
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    return [`${path}: must be an object`];
  const errors: string[] = [];
  const input = given as Record<string, unknown>;
  const known = new Set<string>([
    ...Object.keys(COMPACTION_DEFAULTS),
    'triggerTokens',
    'summarizerTokens',
  ]);
  for (const key of Object.keys(input))
    if (!known.has(key)) errors.push(`${path}.${key}: unknown setting`);
  const o = merged(input);
  if (typeof o.enabled !== 'boolean') errors.push(`${path}.enabled: must be true or false`);
  const before = errors.length;
  for (const name of NUMBERS) {
    const value: unknown = o[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      errors.push(`${path}.${name}: must be a whole number of at least 0, not ${String(value)}`);
  }
  // The rules between numbers only make sense once each number is one.
  if (errors.length === before) {
    if (o.maxPromptTokens < 1000)
      errors.push(`${path}.maxPromptTokens: must be at least 1000 tokens`);
    if (o.triggerTokens >= o.maxPromptTokens)
      errors.push(
        `${path}.triggerTokens: must be less than ${path}.maxPromptTokens (${o.maxPromptTokens})`,
      );
    if (o.summarizerTokens < 500 || o.summarizerTokens > o.maxPromptTokens)
      errors.push(
        `${path}.summarizerTokens: must be between 500 and ${path}.maxPromptTokens (${o.maxPromptTokens})`,
      );
    if (o.digestChars < 200) errors.push(`${path}.digestChars: must be at least 200`);
  }
  if (!isPolicy(o.defaultPolicy))
    errors.push(`${path}.defaultPolicy: must be one of ${RETENTION_POLICIES.join(', ')}`);
  if (!Array.isArray(o.critical)) errors.push(`${path}.critical: must be a list of kinds`);
  else
    o.critical.forEach((kind: unknown, i) => {
      if (!isKind(kind))
        errors.push(
          `${path}.critical.${i}: unknown kind ${JSON.stringify(kind)}; known: ${RETENTION_KINDS.join(', ')}`,
        );
    });
  const retention: unknown = o.retention;
  if (retention === null || typeof retention !== 'object' || Array.isArray(retention))
    errors.push(`${path}.retention: must be an object of kind → policy`);
  else
    for (const [kind, policy] of Object.entries(retention)) {
      if (!isKind(kind))
        errors.push(
          `${path}.retention.${kind}: unknown kind; known: ${RETENTION_KINDS.join(', ')}`,
        );
      else if (!isPolicy(policy))
        errors.push(
          `${path}.retention.${kind}: unknown policy ${JSON.stringify(policy)}; use one of ${RETENTION_POLICIES.join(', ')}`,
        );
      else if (Array.isArray(o.critical) && o.critical.includes(kind))
        errors.push(
          `${path}.retention.${kind}: ${kind} is critical and never reduced; remove it from ${path}.critical to give it a policy`,
        );
    }
  return errors;
}

function merged(given: Partial<CompactionOptions> | Record<string, unknown>): CompactionOptions {
  const defined = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined),
  );
  const max =
    typeof defined.maxPromptTokens === 'number'
      ? defined.maxPromptTokens
      : COMPACTION_DEFAULTS.maxPromptTokens;
  return {
    ...COMPACTION_DEFAULTS,
    triggerTokens: Math.floor(max * 0.75),
    summarizerTokens: Math.floor(max * 0.4),
    ...defined,
  } as CompactionOptions;
}

/** Fills defaults, checks every value and the rules between them, freezes. */
export function resolveCompactionOptions(
  given: Partial<CompactionOptions> = {},
): Readonly<CompactionOptions> {
  const errors = checkCompactionOptions(given);
  if (errors.length > 0)
    throw new BufferError('invalid_options', `invalid compaction settings: ${errors.join('; ')}`, {
      details: errors,
    });
  const options = merged(given);
  return Object.freeze({
    ...options,
    critical: Object.freeze([...options.critical]),
    retention: Object.freeze({ ...options.retention }),
  });
}

/** A kind's policy: critical kinds are never reduced, then the user's override, the kind's default, the global default. */
export function policyOf(
  kind: RetentionKind,
  options: Readonly<CompactionOptions>,
): RetentionPolicy | 'critical' {
  if (options.critical.includes(kind)) return 'critical';
  return options.retention[kind] ?? KIND_POLICIES[kind] ?? options.defaultPolicy;
}
