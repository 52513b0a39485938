import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isNamespace } from '../namespace.js';
import { fnv1a64, normalizeRemote, projectIdentity } from './project.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kl-project-')));
const home = join(root, 'home');
mkdirSync(home);
const env = { KIRO_LEARN_ACTOR: 'dev' };
const identify = (dir: string) => projectIdentity(dir, { env, home });

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

function repo(dir: string, remote?: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  if (remote) git(dir, 'remote', 'add', 'origin', remote);
  return dir;
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('projectIdentity', () => {
  it('maps every worktree and subdirectory of one repository to one project', () => {
    const main = repo(join(home, 'src', 'app'));
    mkdirSync(join(main, 'src', 'deep'), { recursive: true });
    git(main, 'worktree', 'add', '-q', join(root, 'elsewhere', 'app-feature'));
    const ids = [main, join(main, 'src', 'deep'), join(root, 'elsewhere', 'app-feature')].map(
      (dir) => identify(dir),
    );
    expect(new Set(ids.map((id) => id.namespace)).size).toBe(1);
    expect(ids[0]).toMatchObject({ source: 'git', root: main });
    expect(ids[0]!.projectId).toMatch(/^app-[0-9a-f]{12}$/);
    expect(ids[2]!.root).toBe(join(root, 'elsewhere', 'app-feature'));
    expect(isNamespace(ids[0]!.namespace)).toBe(true);
  });

  it('keeps the memory of a repository cloned twice or moved when a remote names it', () => {
    const a = repo(join(home, 'a', 'payments'), 'git@github.com:Acme/payments.git');
    const b = repo(join(root, 'b', 'payments-copy'), 'https://token@github.com/acme/payments');
    const first = identify(a);
    expect(first).toMatchObject({ source: 'git-remote', remote: 'github.com/acme/payments' });
    expect(identify(b).projectId).toBe(first.projectId);
    renameSync(a, join(home, 'moved'));
    expect(identify(join(home, 'moved')).projectId).toBe(first.projectId);
  });

  it('uses the nearest marker directory without git, and the directory itself without one', () => {
    const pkg = join(root, 'opt', 'tool');
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'Cargo.toml'), '');
    expect(identify(join(pkg, 'lib'))).toMatchObject({ source: 'marker', root: pkg });
    const bare = join(root, 'scratch');
    mkdirSync(bare);
    expect(identify(bare)).toMatchObject({ source: 'directory', root: bare });
    expect(identify(bare).projectId).toBe(identify(bare).projectId);
  });

  it('puts the home directory and its ancestors in the global scope', () => {
    expect(identify(home)).toMatchObject({ projectId: 'global', source: 'global' });
    expect(identify(root).projectId).toBe('global');
    expect(identify(home).namespace).toBe('/actor/dev/project/global/');
  });

  it('does not treat a dotfiles repository in the home directory as the project', () => {
    const dotHome = join(root, 'dot-home');
    repo(dotHome);
    mkdirSync(join(dotHome, 'notes'));
    const inHome = (dir: string) => projectIdentity(dir, { env, home: dotHome });
    expect(inHome(join(dotHome, 'notes'))).toMatchObject({ source: 'directory' });
    expect(inHome(dotHome).projectId).toBe('global');
  });

  it('never throws for a directory that does not exist, and makes a namespace-safe actor', () => {
    const id = projectIdentity('/no/such/dir', { env: { KIRO_LEARN_ACTOR: 'jane doe/x' }, home });
    expect(id).toMatchObject({ source: 'directory', actor: 'jane_doe_x' });
    expect(isNamespace(id.namespace)).toBe(true);
  });

  it('replaces control, bidi and unpaired surrogate characters in the actor name', () => {
    const env = { KIRO_LEARN_ACTOR: 'ev\u202Eil\u0000x\uD800' };
    const id = projectIdentity('/no/such/dir', { env, home });
    expect(id.actor).toBe('ev_il_x_');
    expect(isNamespace(id.namespace)).toBe(true);
  });
});

describe('normalizeRemote', () => {
  it.each([
    ['git@github.com:Acme/Repo.git', 'github.com/acme/repo'],
    ['https://user:pw@github.com/acme/repo.git/', 'github.com/acme/repo'],
    ['ssh://git@github.com:22/acme/repo.git', 'github.com/acme/repo'],
    ['/srv/git/repo.git', '/srv/git/repo'],
  ])('%s → %s', (url, expected) => {
    expect(normalizeRemote(url)).toBe(expected);
  });
});

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
});
