import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectIdentity } from '@kiro-learn/schema/node';
import { SHARE_FILE, UNSHARED_FILE } from '@kiro-learn/team';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../src/config/load.js';
import { runCliHere as kiro } from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A real git repository, with `remote` as its origin when given. */
function repo(remote?: string): string {
  const dir = temp('kl-team-repo-');
  execFileSync('git', ['init', '-q', dir]);
  if (remote) execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
  return dir;
}

function envFor(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: '1' };
  delete env['KIRO_LEARN_TEAM_URL'];
  delete env['KIRO_LEARN_TEAM_TOKEN'];
  return env;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('kiro-learn team share / unshare', () => {
  it('share writes a committable file at the repository root naming its remote', async () => {
    const home = temp('kl-team-home-');
    const root = repo('git@github.com:acme/payments-api.git');
    const result = await kiro(['team', 'share', '--project', root], envFor(home));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('commit it');
    expect(JSON.parse(readFileSync(join(root, SHARE_FILE), 'utf8'))).toEqual({
      share: true,
      remote: 'github.com/acme/payments-api',
    });
    expect(result.stdout).toContain('has not joined a team yet');
  });

  it('refuses a project without a git remote, with one line saying what to do', async () => {
    const home = temp('kl-team-home-');
    const root = repo();
    const result = await kiro(['team', 'share'], envFor(home), root);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('has no git remote');
    expect(result.stderr).toContain('git remote add origin');
    expect(existsSync(join(root, SHARE_FILE))).toBe(false);
  });

  it('unshare opts this user out (the committed file stays); share opts back in', async () => {
    const home = temp('kl-team-home-');
    const root = repo('https://github.com/acme/payments-api');
    await kiro(['team', 'share', '--project', root], envFor(home));
    const unshare = await kiro(['team', 'unshare'], envFor(home), root);
    expect(unshare.code).toBe(0);
    const { projectId } = projectIdentity(root);
    const optedOut = JSON.parse(readFileSync(join(home, UNSHARED_FILE), 'utf8'));
    expect(optedOut).toEqual({ projects: [projectId] });
    expect(existsSync(join(root, SHARE_FILE))).toBe(true);
    await kiro(['team', 'share', '--project', root], envFor(home));
    expect(JSON.parse(readFileSync(join(home, UNSHARED_FILE), 'utf8'))).toEqual({ projects: [] });
  });
});

describe('kiro-learn team join / leave', () => {
  it('join with an unreachable server changes nothing and says why in one line', async () => {
    const home = temp('kl-team-home-');
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await kiro(['team', 'join', url, '--token', 'klm_x'], envFor(home));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unreachable');
    expect(result.stderr).toContain('nothing changed');
    expect(existsSync(join(home, 'team-token'))).toBe(false);
    expect(existsSync(join(home, 'settings.json'))).toBe(false);
  });

  it('join needs a URL and a token', async () => {
    const home = temp('kl-team-home-');
    expect((await kiro(['team', 'join', 'memory.example.com'], envFor(home))).stderr).toContain(
      'http:// or https:// URL',
    );
    expect((await kiro(['team', 'join', 'https://m.example.com'], envFor(home))).stderr).toContain(
      '--token <token> is needed',
    );
  });

  it('a joined machine reads its token from the 0600 token file; env wins; leave undoes it', async () => {
    const home = temp('kl-team-home-');
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ team: { url: 'https://m.example.com/' } }),
    );
    writeFileSync(join(home, 'team-token'), 'klm_from_file\n', { mode: 0o600 });
    expect(loadSettings(envFor(home)).config?.team).toMatchObject({
      url: 'https://m.example.com',
      token: 'klm_from_file',
    });
    expect(
      loadSettings({ ...envFor(home), KIRO_LEARN_TEAM_TOKEN: 'klm_from_env' }).config?.team.token,
    ).toBe('klm_from_env');
    rmSync(join(home, 'team-token'));
    expect(loadSettings(envFor(home)).errors.join('\n')).toContain('team.token');
    writeFileSync(join(home, 'team-token'), 'klm_from_file\n', { mode: 0o600 });
    expect((await kiro(['team', 'leave'], envFor(home))).code).toBe(0);
    expect(existsSync(join(home, 'team-token'))).toBe(false);
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toEqual({});
  });

  it('team status without a team says how to join', async () => {
    const home = temp('kl-team-home-');
    const result = await kiro(['team', 'status'], envFor(home));
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain('kiro-learn team join');
  });
});
