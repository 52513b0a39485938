import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envName, OTHER_ENV_VARIABLES, settingsEnvVariables } from './env.js';
import { loadSettings } from './load.js';
import { normalizeSettings } from './settings.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'kl-env-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Every leaf of the settings with its dot path (buffer.compaction's keys included). */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, v]) =>
    leafPaths(v, prefix ? `${prefix}.${key}` : key),
  );
}

describe('KIRO_LEARN_* variables generated from the settings schema', () => {
  it('names each variable after its key', () => {
    expect(envName(['retrieval', 'budgetMs'])).toBe('KIRO_LEARN_RETRIEVAL_BUDGET_MS');
    expect(envName(['buffer', 'compaction', 'protectedTail'])).toBe(
      'KIRO_LEARN_BUFFER_COMPACTION_PROTECTED_TAIL',
    );
  });

  it('gives every settings key a variable, and none takes a name read elsewhere', () => {
    const defaults = normalizeSettings({}, home);
    // home is KIRO_LEARN_HOME; token and compaction's derived keys have no default leaf.
    const keys = leafPaths({ ...defaults, home: undefined }).filter((k) => k !== 'home');
    const covered = new Set(settingsEnvVariables().map((v) => v.path.join('.')));
    for (const key of keys) expect(covered, `${key} has no variable`).toContain(key);
    const names = settingsEnvVariables().map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [reserved] of OTHER_ENV_VARIABLES) expect(names).not.toContain(reserved);
  });

  it('each variable reaches its setting: a value it cannot take is reported against it', () => {
    for (const variable of settingsEnvVariables()) {
      const key = variable.path.join('.');
      const loaded = loadSettings({ KIRO_LEARN_HOME: home, [variable.name]: '\u0000probe' });
      const reached =
        loaded.errors.some((e) => e.startsWith(`${key} (from ${variable.name}):`)) ||
        leafPaths(loaded.config).some(
          (p) => p === key && String(readPath(loaded.config, p)) === '\u0000probe',
        );
      expect(reached, `${variable.name} does not reach ${key}: ${loaded.errors.join('; ')}`).toBe(
        true,
      );
    }
  });

  it('reads numbers, lists and objects as JSON and strings as written', () => {
    const { config, errors } = loadSettings({
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_RETRIEVAL_RECORDS: '7',
      KIRO_LEARN_PRIVACY_EXTRA_PATTERNS: '["ACME-[0-9]{8}"]',
      KIRO_LEARN_BUFFER_COMPACTION_PROTECTED_TAIL: '5',
      KIRO_LEARN_BUFFER_COMPACTION_ENABLED: 'false',
      KIRO_LEARN_TOKEN: '12345678901234567890',
    });
    expect(errors).toEqual([]);
    expect(config?.retrieval.records).toBe(7);
    expect(config?.privacy.extraPatterns).toEqual(['ACME-[0-9]{8}']);
    expect(config?.buffer.compaction).toEqual({ protectedTail: 5, enabled: false });
    expect(config?.token).toBe('12345678901234567890');
  });

  it('still honours the older names, and the generated name wins over them', () => {
    const old = loadSettings({ KIRO_LEARN_HOME: home, KIRO_LEARN_EXTRACTOR: 'builtin' });
    expect(old.config?.extraction.mode).toBe('builtin');
    const both = loadSettings({
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_EXTRACTOR: 'builtin',
      KIRO_LEARN_EXTRACTION_MODE: 'acp',
    });
    expect(both.config?.extraction.mode).toBe('acp');
  });
});

function readPath(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], value);
}
