import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAcpExtractor, runAcpPrompt } from '../src/index.js';
import { fixtureSession, NAMESPACE } from './fixtures/session.js';

// The extraction agent may be an agent with the user's own kiro-learn hooks installed
// (Kiro CLI, Claude Code through its ACP adapter). Its hooks must record nothing, or each
// extraction would be captured and extracted again: every agent starts with
// KIRO_LEARN_CAPTURE=off, which the hook scripts honour.
const dir = mkdtempSync(join(tmpdir(), 'kl-capture-off-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An "agent" that writes down what its hooks would see in KIRO_LEARN_CAPTURE, then exits. */
const recorder = (file: string) => [
  process.execPath,
  '-e',
  `require('node:fs').writeFileSync(${JSON.stringify(file)}, String(process.env.KIRO_LEARN_CAPTURE))`,
];

describe('the extraction agent runs with capture off', () => {
  it('with the collector environment', async () => {
    const file = join(dir, 'inherited');
    await runAcpPrompt({
      command: recorder(file),
      prompt: 'x',
      cwd: dir,
      timeoutMs: 30_000,
      killGraceMs: 500,
    }).catch(() => undefined); // the recorder speaks no ACP: the turn fails, the env is written
    expect(readFileSync(file, 'utf8')).toBe('off');
  });

  it('even when the configured environment says otherwise', async () => {
    const file = join(dir, 'configured');
    const extractor = createAcpExtractor({
      command: recorder(file),
      env: { ...process.env, KIRO_LEARN_CAPTURE: 'on' },
      attempts: 1,
    });
    await extractor
      .extract({ namespace: NAMESPACE, events: fixtureSession() })
      .catch(() => undefined);
    expect(readFileSync(file, 'utf8')).toBe('off');
  });
});
