/**
 * `kiro-learn install`: this checkout's kiro-learn, built, packed and installed the way a
 * release is (`npm pack` tarballs, everything else from the registry), into a directory of
 * its own, with its three commands in a directory on the PATH. Nothing of the checkout is
 * used afterwards: moving or deleting it breaks no agent.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';
import { chooseNode, HOOK_NODE_FLOOR, type NodeChoice } from '@kiro-learn/shims';
import { CollectorError } from '../errors.js';
import { type CommandNodes, commandScripts } from './commands.js';
import { INSTALL_RECORD, type InstallRecord } from './layout.js';

export interface InstallOptions {
  /** The checkout's root. */
  checkout: string;
  /** Where the program goes (replaced as a whole when it is there). */
  dir: string;
  /** Where the three commands go. */
  bin: string;
  env: NodeJS.ProcessEnv;
  /** Progress text: one line per phase, its label first, `done in N s` when done. */
  progress(text: string): void;
}

export interface InstallReport {
  record: InstallRecord;
  /** Bytes the program takes on disk (each file once, hard links counted once). */
  bytes: number;
  /** Of which the private Node brought along for the collector, when one was. */
  nodeBytes: number;
  /** Whether onnxruntime-node loads in the install (else embeddings run on WASM). */
  fastRuntime: { ok: true } | { ok: false; reason: string };
}

const CLI_NODE_FLOOR = '22.0.0';

/** Runs `cmd` or throws a CollectorError with the tail of what it said. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string) {
  const result = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 600_000 });
  if (result.error || result.status !== 0) {
    const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-15);
    throw new CollectorError(
      'install_failed',
      `kiro-learn install: ${what} failed (${result.error?.message ?? `exit ${result.status}`})${said.length ? `:\n  ${said.join('\n  ')}` : ''}`,
    );
  }
  return result.stdout;
}

/** Times one phase and says it on one line: the label now, its time when done. */
function phase<T>(progress: (text: string) => void, label: string, work: () => T): T {
  const started = Date.now();
  progress(`${label}… `);
  let done = false;
  try {
    const result = work();
    done = true;
    return result;
  } finally {
    progress(done ? `done in ${Math.round((Date.now() - started) / 1000)} s\n` : 'failed\n');
  }
}

/** The workspace's packages that are published (packages/*, apps/*, not private). */
export function publicPackageDirs(checkout: string): string[] {
  return ['packages', 'apps'].flatMap((parent) =>
    readdirSync(join(checkout, parent))
      .map((name) => join(checkout, parent, name))
      .filter((dir) => {
        try {
          return !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private;
        } catch {
          return false;
        }
      }),
  );
}

/** The environment npm runs in: this run's, without what pnpm put there for its own children. */
function npmEnv(env: NodeJS.ProcessEnv, node: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(env).filter(
      ([key]) =>
        !/^(npm_(package|lifecycle|command|execpath|node_execpath)|npm_config_user_agent|pnpm_|PNPM_)/i.test(
          key,
        ),
    ),
  );
  return {
    ...clean,
    // Its install script downloads GPU libraries from outside the registry and, failing,
    // makes npm drop the package without a word: the CPU runtime ships in the package.
    ONNXRUNTIME_NODE_INSTALL: 'skip',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    // Native modules are fetched for the Node that will run them.
    PATH: [dirname(node), env['PATH'] ?? ''].join(delimiter),
  };
}

/** A private Node (a checkout's `.tools/`) does not outlive the checkout: bring a copy. */
function isPrivate(node: NodeChoice, checkout: string): boolean {
  const inside = (path: string) =>
    path.startsWith(checkout + sep) || path.split(sep).includes('.tools');
  return inside(node.path) || inside(realpathSync(node.path));
}

/** Hard link when on the same file system (no extra disk), else a copy. */
function linkOrCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
    chmodSync(to, 0o755);
  }
}

/**
 * onnxruntime-node ships its CPU runtime for every platform (~290 MB); an install runs on
 * this one: the others' binaries go (~250 MB less).
 */
function pruneOtherPlatforms(ort: string): void {
  const napi = join(ort, 'bin');
  if (!existsSync(napi)) return;
  for (const abi of readdirSync(napi)) {
    for (const platform of readdirSync(join(napi, abi))) {
      const platformDir = join(napi, abi, platform);
      if (platform !== process.platform) {
        rmSync(platformDir, { recursive: true, force: true });
        continue;
      }
      for (const arch of readdirSync(platformDir)) {
        if (arch !== process.arch)
          rmSync(join(platformDir, arch), { recursive: true, force: true });
      }
    }
  }
}

/** Disk use of a tree: regular files, each inode once. */
export function diskBytes(root: string): number {
  const seen = new Set<string>();
  let total = 0;
  const walk = (path: string) => {
    const stat = lstatSync(path, { bigint: true });
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stat.isFile()) {
      const id = `${stat.dev}:${stat.ino}`;
      if (seen.has(id)) return;
      seen.add(id);
      total += Number(stat.blocks) * 512;
    }
  };
  if (existsSync(root)) walk(root);
  return total;
}

/** Writes a file by rename, so a hook starting meanwhile reads the old or the new one. */
function writeExecutable(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o755 });
  chmodSync(temp, 0o755);
  renameSync(temp, path);
}

export function installFromCheckout(options: InstallOptions): InstallReport {
  const { checkout, dir, bin, env, progress } = options;
  const packages = publicPackageDirs(checkout);
  const staging = `${dir}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const packs = join(staging, 'packs');
  mkdirSync(packs, { recursive: true });
  try {
    // The tarballs a release publishes (workspace and catalog ranges become versions).
    const manifests = packages.map(
      (pkg) =>
        JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
          name: string;
          version: string;
        },
    );
    phase(progress, `packing ${packages.length} packages`, () =>
      run(
        'pnpm',
        [
          '--recursive',
          ...manifests.flatMap((m) => ['--filter', m.name]),
          'pack',
          '--pack-destination',
          packs,
        ],
        checkout,
        env,
        'pnpm pack',
      ),
    );
    const tarballs = manifests.map((m) => {
      const file = `${m.name.replace(/^@/, '').replace('/', '-')}-${m.version}.tgz`;
      if (!existsSync(join(packs, file))) {
        throw new CollectorError('install_failed', `kiro-learn install: pnpm pack made no ${file}`);
      }
      return { name: m.name, spec: `file:packs/${file}` };
    });
    const overrides = Object.fromEntries(tarballs.map((t) => [t.name, t.spec]));
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify(
        {
          name: 'kiro-learn-install',
          private: true,
          description: 'kiro-learn, installed by `kiro-learn install`',
          dependencies: { 'kiro-learn': overrides['kiro-learn'] },
          overrides,
        },
        null,
        2,
      )}\n`,
    );

    // The Node the CLI runs on: one on the PATH when there is one, else a copy of this
    // checkout's private Node (hard-linked where it can be).
    const chosen = chooseNode(process.execPath, env, CLI_NODE_FLOOR);
    const privateNode = isPrivate(chosen, checkout);
    const cliNode = privateNode
      ? { path: join(dir, 'node', 'bin', 'node'), version: chosen.version }
      : { path: chosen.path, version: chosen.version };
    if (privateNode) linkOrCopy(realpathSync(chosen.path), join(staging, 'node', 'bin', 'node'));
    const hookChoice = chooseNode(process.execPath, env, HOOK_NODE_FLOOR);
    const hookNode = isPrivate(hookChoice, checkout)
      ? cliNode
      : { path: hookChoice.path, version: hookChoice.version };

    phase(progress, 'installing with npm (dependencies from the registry)', () =>
      run(
        'npm',
        ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'],
        staging,
        npmEnv(env, realpathSync(chosen.path)),
        'npm install',
      ),
    );

    pruneOtherPlatforms(join(staging, 'node_modules', 'onnxruntime-node'));
    const probe = spawnSync(realpathSync(chosen.path), ['-e', "require('onnxruntime-node')"], {
      cwd: join(staging, 'node_modules', '@kiro-learn', 'embeddings'),
      encoding: 'utf8',
    });
    const fastRuntime: InstallReport['fastRuntime'] =
      probe.status === 0
        ? { ok: true }
        : {
            ok: false,
            reason:
              (probe.stderr || probe.error?.message || 'it does not load')
                .trim()
                .split('\n')
                .find((l) => /Error|Cannot/.test(l)) ?? 'it does not load',
          };

    // The new program replaces the old one at once; a failure above left the old one as it was.
    const old = `${dir}.old-${process.pid}`;
    if (existsSync(dir)) renameSync(dir, old);
    mkdirSync(dirname(dir), { recursive: true });
    renameSync(staging, dir);
    rmSync(old, { recursive: true, force: true });

    const program = join(dir, 'node_modules', 'kiro-learn');
    const version = (
      JSON.parse(readFileSync(join(program, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const nodes: CommandNodes = { cli: cliNode, hooks: hookNode };
    mkdirSync(bin, { recursive: true });
    const commands = Object.entries(commandScripts(program, nodes, checkout)).map(
      ([name, text]) => {
        writeExecutable(join(bin, name), text);
        return join(bin, name);
      },
    );
    const record: InstallRecord = {
      version,
      from: checkout,
      at: new Date().toISOString(),
      dir,
      bin,
      commands,
      node: cliNode,
      hookNode,
    };
    writeFileSync(join(dir, INSTALL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
    return {
      record,
      bytes: diskBytes(dir),
      nodeBytes: privateNode ? diskBytes(join(dir, 'node')) : 0,
      fastRuntime,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Removes what an install wrote: its commands (only if still ours) and its directory. */
export function removeInstall(record: InstallRecord, isOurs: (file: string) => boolean): string[] {
  const removed: string[] = [];
  for (const file of record.commands) {
    if (existsSync(file) && isOurs(file)) {
      rmSync(file, { force: true });
      removed.push(file);
    }
  }
  if (existsSync(record.dir)) {
    rmSync(record.dir, { recursive: true, force: true });
    removed.push(record.dir);
  }
  return removed;
}
