import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { NS } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function claimsConformance({ open }: BackendFactory): void {
  describe('extraction claims', () => {
    it('grants a namespace to one owner at a time until it releases', async () => {
      const storage = await open();
      expect(await storage.claimExtraction(NS, 'collector-a', 60_000)).toBe(true);
      expect(await storage.claimExtraction(NS, 'collector-b', 60_000)).toBe(false);
      expect(await storage.claimExtraction(NS, 'collector-a', 60_000)).toBe(true); // renewal
      expect(await storage.claimExtraction('/actor/x/project/y/', 'collector-b', 60_000)).toBe(
        true,
      );
      await storage.releaseExtraction(NS, 'collector-b'); // not its claim: no effect
      expect(await storage.claimExtraction(NS, 'collector-b', 60_000)).toBe(false);
      await storage.releaseExtraction(NS, 'collector-a');
      expect(await storage.claimExtraction(NS, 'collector-b', 60_000)).toBe(true);
    });

    it('lets another owner take a claim that ran out (its holder died)', async () => {
      const storage = await open();
      expect(await storage.claimExtraction(NS, 'dead', 50)).toBe(true);
      await sleep(150);
      expect(await storage.claimExtraction(NS, 'alive', 60_000)).toBe(true);
      expect(await storage.claimExtraction(NS, 'dead', 60_000)).toBe(false);
    });

    it('gives a contested claim to exactly one of many claimants', async () => {
      const storage = await open();
      const granted = await Promise.all(
        Array.from({ length: 10 }, (_, i) => storage.claimExtraction(NS, `c${i}`, 60_000)),
      );
      expect(granted.filter(Boolean)).toHaveLength(1);
    });
  });
}
