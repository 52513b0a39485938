import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BackendFactory } from './types.js';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export function membersConformance({ open }: BackendFactory): void {
  describe('members', () => {
    it('adds, finds by token hash, lists and removes members; names and tokens are unique', async () => {
      const storage = await open();
      const alice = await storage.addMember({
        name: 'alice',
        role: 'admin',
        tokenHash: hash('kl_alice'),
      });
      expect(alice).toMatchObject({ name: 'alice', team: 'default', role: 'admin' });
      await storage.addMember({ name: 'bob', role: 'member', tokenHash: hash('kl_bob') });
      await expect(
        storage.addMember({ name: 'alice', role: 'member', tokenHash: hash('kl_other') }),
      ).rejects.toMatchObject({ code: 'conflict' });
      await expect(
        storage.addMember({ name: 'carol', role: 'member', tokenHash: hash('kl_bob') }),
      ).rejects.toMatchObject({ code: 'conflict' });
      expect(await storage.findMember(hash('kl_bob'))).toMatchObject({
        name: 'bob',
        role: 'member',
      });
      expect(await storage.findMember(hash('kl_nobody'))).toBeUndefined();
      expect((await storage.listMembers()).map((m) => m.name)).toEqual(['alice', 'bob']);
      expect(await storage.removeMember('bob')).toBe(true);
      expect(await storage.removeMember('bob')).toBe(false);
      expect(await storage.findMember(hash('kl_bob'))).toBeUndefined();
      expect(await storage.listMembers()).toEqual([alice]);
    });

    it('each member belongs to one team; names are unique across teams', async () => {
      const storage = await open();
      await storage.addMember({ name: 'zoe', team: 'apps', role: 'admin', tokenHash: hash('z') });
      await storage.addMember({ name: 'amy', team: 'web', role: 'member', tokenHash: hash('a') });
      await storage.addMember({ name: 'bo', role: 'member', tokenHash: hash('b') });
      await expect(
        storage.addMember({ name: 'amy', team: 'apps', role: 'member', tokenHash: hash('c') }),
      ).rejects.toMatchObject({ code: 'conflict' });
      expect(await storage.findMember(hash('z'))).toMatchObject({ name: 'zoe', team: 'apps' });
      expect((await storage.listMembers()).map((m) => [m.team, m.name, m.role])).toEqual([
        ['apps', 'zoe', 'admin'],
        ['default', 'bo', 'member'],
        ['web', 'amy', 'member'],
      ]);
    });
  });
}
