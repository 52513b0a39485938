import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectorAddress } from '@kiro-learn/schema/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'kl-settings-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const write = (value: unknown) =>
  writeFileSync(
    join(home, 'settings.json'),
    typeof value === 'string' ? value : JSON.stringify(value),
  );

describe('loadSettings', () => {
  it('uses the defaults when there is no settings file', () => {
    const loaded = loadSettings({ KIRO_LEARN_HOME: home });
    expect(loaded.errors).toEqual([]);
    expect(loaded.config).toMatchObject({ home, host: '127.0.0.1', port: 21100, logLevel: 'info' });
    expect(Object.isFrozen(loaded.config?.retrieval)).toBe(true);
  });

  it('lets the environment win over the file, and agrees with what clients read', () => {
    write({ host: 'localhost', port: 4000, token: 'from-the-file-0123456789' });
    const env = { KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: '4100' };
    const { config } = loadSettings(env);
    const client = collectorAddress(env);
    expect(config).toMatchObject({
      host: 'localhost',
      port: 4100,
      token: 'from-the-file-0123456789',
    });
    expect({ host: client.host, port: client.port, token: client.token }).toEqual({
      host: config?.host,
      port: config?.port,
      token: config?.token,
    });
  });

  it('reports every invalid setting as dot.path: message, naming env variables', () => {
    write({ port: 70000, retrieval: { records: 0 }, logLevel: 'loud' });
    const { config, errors } = loadSettings({ KIRO_LEARN_HOME: home, KIRO_LEARN_HOST: 'a b' });
    expect(config).toBeUndefined();
    expect(errors).toHaveLength(4);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^port: /),
        expect.stringMatching(/^retrieval\.records: /),
        expect.stringMatching(/^logLevel: /),
        expect.stringMatching(/^host \(from KIRO_LEARN_HOST\): must be a host name/),
      ]),
    );
  });

  it('says when settings.json is not JSON', () => {
    write('{ "port": 1,, }');
    const { errors } = loadSettings({ KIRO_LEARN_HOME: home });
    expect(errors[0]).toMatch(/settings\.json is not valid JSON/);
  });

  it('refuses a non-loopback address without a token, and accepts it with one', () => {
    const bare = loadSettings({ KIRO_LEARN_HOME: home, KIRO_LEARN_HOST: '0.0.0.0' });
    expect(bare.errors).toEqual([
      expect.stringMatching(/^token: binding 0\.0\.0\.0 .*KIRO_LEARN_TOKEN/),
    ]);
    const withToken = loadSettings({
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_HOST: '0.0.0.0',
      KIRO_LEARN_TOKEN: 'a-long-random-token-value',
    });
    expect(withToken.errors).toEqual([]);
  });

  it('rejects an extra privacy pattern that is not a regular expression', () => {
    write({ privacy: { extraPatterns: ['ok-\\d+', '(broken'] } });
    const { errors } = loadSettings({ KIRO_LEARN_HOME: home });
    expect(errors).toEqual([expect.stringMatching(/^privacy\.extraPatterns\.1: /)]);
  });

  it('warns about unknown keys and risky values without stopping', () => {
    write({ colour: 'blue', retrieval: { budgetMs: 5000 } });
    const { config, warnings } = loadSettings({ KIRO_LEARN_HOME: home });
    expect(config).toBeDefined();
    expect(warnings).toEqual([
      'colour: unknown setting, ignored',
      expect.stringMatching(/^retrieval\.budgetMs: /),
    ]);
  });
});
