import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { WASM_SLOWDOWN } from '@kiro-learn/embeddings';
import { installFromCheckout } from '../install/install.js';
import { installation } from '../install/layout.js';
import { line, parseCommandArgs } from './args.js';
import type { Command, CommandIO } from './types.js';

// Thin by design: what install does lives in src/install/.
export const install: Command = {
  name: 'install',
  summary:
    "put this checkout's kiro-learn on your PATH (kiro-learn, kiro-learn-shim, kiro-learn-mcp)",
  usage: `kiro-learn install [--dir DIR] [--bin DIR]

From a checkout of the repository (./pnpmw kiro-learn install): packs every package as a
release does, installs the tarballs with npm (the rest from the registry, onnxruntime-node
kept) into a directory of its own, and writes the kiro-learn, kiro-learn-shim and
kiro-learn-mcp commands into a directory on your PATH. Nothing of the checkout is used
afterwards. Running it again updates the install; kiro-learn uninstall --self removes it.
  --dir DIR   where the program goes (default: $XDG_DATA_HOME/kiro-learn, or
              ~/.local/share/kiro-learn)
  --bin DIR   where the commands go (default: ~/.local/bin, or ~/bin when only that is on
              your PATH)`,
  async run(args, io) {
    const { values } = parseCommandArgs('install', args, {
      dir: { type: 'string' },
      bin: { type: 'string' },
    });
    const at = installation();
    if (at.kind !== 'checkout') {
      const where = at.kind === 'installed' ? at.record.dir : at.dir;
      line(
        io.stderr,
        `kiro-learn install puts a checkout's kiro-learn on your PATH; this kiro-learn is already installed (${where}). To update it, run the install again from its checkout (${at.kind === 'installed' ? `${join(at.record.from, 'pnpmw')} kiro-learn install` : './pnpmw kiro-learn install'}), or: ONNXRUNTIME_NODE_INSTALL=skip npm install -g kiro-learn`,
      );
      return 1;
    }
    const home = io.env['HOME'] ?? homedir();
    const dir = resolve(io.cwd, values.dir ?? defaultDir(io.env, home));
    const bin = resolve(io.cwd, values.bin ?? defaultBin(io.env, home));
    const report = installFromCheckout({
      checkout: at.root,
      dir,
      bin,
      env: io.env,
      progress: (text) => io.stderr.write(text),
    });
    const { record } = report;
    const tilde = (path: string) =>
      path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
    const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
    const withNode = report.nodeBytes
      ? `, ${mb(report.nodeBytes)} of it Node ${record.node.version} for the collector`
      : `; the collector runs on Node ${record.node.version}, ${tilde(record.node.path)}`;
    line(io.stdout, `kiro-learn ${record.version} is installed:`);
    line(io.stdout, `  commands:   kiro-learn, kiro-learn-shim, kiro-learn-mcp in ${tilde(bin)}`);
    line(io.stdout, `  program:    ${tilde(dir)} (${mb(report.bytes)} on disk${withNode})`);
    line(
      io.stdout,
      `  hooks, MCP: Node ${record.hookNode.version}, ${tilde(record.hookNode.path)}`,
    );
    line(
      io.stdout,
      report.fastRuntime.ok
        ? '  embeddings: onnxruntime-node (the fast runtime)'
        : `  embeddings: WASM, ${WASM_SLOWDOWN} slower: onnxruntime-node does not load here (${report.fastRuntime.reason})`,
    );
    line(
      io.stdout,
      `  undo:       kiro-learn uninstall --self (your memory in the data dir is kept)`,
    );
    if (!onPath(bin, io.env)) {
      line(
        io.stdout,
        `${tilde(bin)} is not on your PATH: add it (export PATH="${bin}:$PATH" in your shell's profile), or run ${join(bin, 'kiro-learn')}`,
      );
    }
    line(io.stdout, 'Next, in the project your agent should remember: kiro-learn init');
    return 0;
  },
};

function defaultDir(env: NodeJS.ProcessEnv, home: string): string {
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'kiro-learn');
}

/** ~/.local/bin, unless only ~/bin is on the PATH. */
function defaultBin(env: NodeJS.ProcessEnv, home: string): string {
  const local = join(home, '.local', 'bin');
  const plain = join(home, 'bin');
  return !onPath(local, env) && onPath(plain, env) && existsSync(plain) ? plain : local;
}

function onPath(dir: string, env: CommandIO['env']): boolean {
  return (env['PATH'] ?? '').split(delimiter).some((entry) => entry && resolve(entry) === dir);
}
