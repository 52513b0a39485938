import { readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { replaceForbidden } from '../identifiers.js';
import { buildNamespace } from '../namespace.js';

/** Which project a directory belongs to, and the namespace its memory lives in. */
export interface ProjectIdentity {
  /** Stable project id: the namespace's project part (`global` for the home directory). */
  projectId: string;
  /** The project's root directory: git top-level, marker directory, or the directory itself. */
  root: string;
  /** How the project was recognised; `git-remote` ids survive moves and fresh clones. */
  source: 'git-remote' | 'git' | 'marker' | 'directory' | 'global';
  /** Normalised remote URL the id was derived from, when `source` is `git-remote`. */
  remote?: string;
  /** The local user, namespace-safe (`KIRO_LEARN_ACTOR`, else the OS user name). */
  actor: string;
  /** `/actor/<actor>/project/<projectId>/`. */
  namespace: string;
}

/** Where identity is looked up; defaults are the real process's. */
export interface ProjectIdentityOptions {
  /** Environment read for `KIRO_LEARN_ACTOR`. */
  env?: NodeJS.ProcessEnv;
  /** Home directory: it and its ancestors map to the global scope. */
  home?: string;
}

/** Files that make a directory a project root when there is no git repository. */
export const PROJECT_MARKERS = [
  'package.json',
  'Cargo.toml',
  'go.mod',
  'pyproject.toml',
  'setup.py',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'Gemfile',
  'composer.json',
  'mix.exs',
  'deno.json',
  'Makefile',
  'CMakeLists.txt',
  '.kiro',
] as const;

/**
 * The one project-identity function shared by the shims and the MCP server, so a hook and
 * the MCP tools of the same project always land in the same namespace. Never throws and
 * spawns nothing (it runs in every hook process): git metadata is read from `.git` directly.
 */
export function projectIdentity(
  dir: string,
  options: ProjectIdentityOptions = {},
): ProjectIdentity {
  const actor = actorId(options.env ?? process.env);
  const home = real(options.home ?? homedir());
  const start = real(dir);
  const make = (
    source: ProjectIdentity['source'],
    root: string,
    projectId: string,
    remote?: string,
  ): ProjectIdentity => ({
    projectId,
    root,
    source,
    ...(remote ? { remote } : {}),
    actor,
    namespace: buildNamespace(actor, projectId),
  });
  const global = () => make('global', home, 'global');
  if (isSameOrAncestor(start, home)) return global();

  const git = findGit(start, home);
  if (git) {
    const remote = remoteUrl(git.commonDir);
    // A remote names the repository wherever it is cloned; without one, the common git dir
    // is the only thing all worktrees of one repository share.
    if (remote)
      return make('git-remote', git.top, projectId(lastSegment(remote), `git:${remote}`), remote);
    const base = basename(git.commonDir) === '.git' ? dirname(git.commonDir) : git.commonDir;
    return make('git', git.top, projectId(basename(base), `path:${base}`));
  }

  for (let at = start; !isSameOrAncestor(at, home); at = dirname(at)) {
    if (PROJECT_MARKERS.some((marker) => exists(join(at, marker)))) {
      return make('marker', at, projectId(basename(at), `path:${at}`));
    }
    if (dirname(at) === at) break;
  }
  return make('directory', start, projectId(basename(start), `path:${start}`));
}

/** Normalises a git remote URL so SSH, HTTPS and credentialed forms of one repository agree. */
export function normalizeRemote(url: string): string {
  let rest = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(rest);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    rest = `${scp[1]}/${scp[2]}`;
  } else {
    rest = rest
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/^[^@/]*@/, '')
      .replace(/^([^/:]+):\d+(?=\/)/, '$1');
  }
  return rest
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .toLowerCase();
}

function actorId(env: NodeJS.ProcessEnv): string {
  let name = env['KIRO_LEARN_ACTOR'];
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = '';
    }
  }
  const safe = replaceForbidden(name)
    .replace(/[/\s]+/g, '_')
    .slice(0, 128)
    .replace(/[\ud800-\udbff]$/, '');
  return safe || 'local';
}

function projectId(label: string, key: string): string {
  const slug = label
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  const hash = fnv1a64(key).slice(0, 12);
  return slug ? `${slug}-${hash}` : hash;
}

/**
 * 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits. Not node:crypto: loading it costs
 * every hook process several milliseconds, and an id needs spread, not secrecy.
 */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function lastSegment(remote: string): string {
  return remote.split(/[/:]/).filter(Boolean).pop() ?? '';
}

interface GitLocation {
  /** Working-tree top level. */
  top: string;
  /** The git dir shared by every worktree of the repository. */
  commonDir: string;
}

/** Walks up from `start`, never into `home` itself (a dotfiles repository is not a project). */
function findGit(start: string, home: string): GitLocation | undefined {
  for (let at = start; at !== home; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const kind = statKind(dotGit);
    if (kind === 'dir') return { top: at, commonDir: dotGit };
    if (kind === 'file') {
      // Worktrees and submodules: `.git` is a file pointing at their own git dir, whose
      // `commondir` (worktrees only) points back at the main repository's.
      const pointer = /^gitdir:\s*(.+)$/m.exec(read(dotGit) ?? '');
      if (pointer) {
        const gitDir = resolve(at, pointer[1]!.trim());
        const common = read(join(gitDir, 'commondir'))?.trim();
        return { top: at, commonDir: real(common ? resolve(gitDir, common) : gitDir) };
      }
    }
    if (dirname(at) === at) return undefined;
  }
  return undefined;
}

function remoteUrl(commonDir: string): string | undefined {
  const config = read(join(commonDir, 'config'));
  if (!config) return undefined;
  const urls = new Map<string, string>();
  let remote: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*([^\]\s]+)(?:\s+"([^"]*)")?\s*\]/.exec(line);
    if (section) {
      remote = section[1]!.toLowerCase() === 'remote' ? section[2] : undefined;
      continue;
    }
    const url = /^\s*url\s*=\s*(.+?)\s*$/i.exec(line);
    if (remote !== undefined && url && !urls.has(remote)) urls.set(remote, url[1]!);
  }
  const chosen = urls.get('origin') ?? urls.values().next().value;
  return chosen ? normalizeRemote(chosen) || undefined : undefined;
}

function isSameOrAncestor(dir: string, of: string): boolean {
  return of === dir || of.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function statKind(path: string): 'dir' | 'file' | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  return statKind(path) !== undefined;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
