import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, formatPretty } from './logger.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('createLogger', () => {
  it('writes JSON lines at or above its level, with child fields', () => {
    dir = mkdtempSync(join(tmpdir(), 'kl-log-'));
    const file = join(dir, 'logs', 'collector.log');
    const logger = createLogger({ file, level: 'info', maxBytes: 1 << 20, files: 2 });
    logger.debug('hidden');
    expect([logger.enabled('debug'), logger.enabled('info')]).toEqual([false, true]);
    logger.child({ request_id: 'r1' }).warn('refused', { status: 403 });
    logger.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'refused', request_id: 'r1', status: 403 },
    ]);
  });

  it('rotates by size and keeps the configured number of files', () => {
    dir = mkdtempSync(join(tmpdir(), 'kl-log-'));
    const file = join(dir, 'collector.log');
    const logger = createLogger({ file, level: 'info', maxBytes: 1000, files: 2 });
    for (let i = 0; i < 100; i++) logger.info(`line ${i}`, { pad: 'x'.repeat(40) });
    logger.close();
    expect(readdirSync(dir).sort()).toEqual([
      'collector.log',
      'collector.log.1',
      'collector.log.2',
    ]);
    for (const name of readdirSync(dir)) {
      expect(readFileSync(join(dir, name)).length).toBeLessThanOrEqual(1000);
    }
    expect(readFileSync(file, 'utf8')).toMatch(/"msg":"line 99"/);
  });

  it('formats a line for people', () => {
    expect(
      formatPretty({ time: '2026-11-22T10:00:01.123Z', level: 'info', msg: 'hi', port: 1 }),
    ).toBe('10:00:01.123 INFO  hi port=1');
  });

  it('never throws on a full disk (a line that cannot be written is dropped whole)', () => {
    dir = mkdtempSync(join(tmpdir(), 'kl-log-'));
    // Linux's /dev/full fails every write with ENOSPC.
    const logger = createLogger({ file: '/dev/full', level: 'info', maxBytes: 1 << 20, files: 0 });
    expect(() => logger.error('request failed', { status: 507 })).not.toThrow();
    logger.close();
  });
});
