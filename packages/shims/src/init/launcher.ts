import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS } from '@kiro-learn/schema';
import type { ShimSurface } from '../hook.js';
import { FAST_PATH_DEADLINES, fastPath } from './fast-path.js';
import type { McpLaunch } from './merge.js';
import { atLeast, type NodeChoice } from './node.js';
import { shellQuote } from './quote.js';

/**
 * The data dir as a hook command finds it on any machine: what goes into files teams
 * commit, so a teammate's hooks find their own kiro-learn.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, on purpose
export const PORTABLE_DATA_DIR = '${KIRO_LEARN_HOME:-$HOME/.kiro-learn}';

export const HOOK_LAUNCHER = 'kiro-learn-hook';
export const MCP_LAUNCHER = 'kiro-learn-mcp';

/**
 * The longest one hook can take, in seconds: the fast path's two deadlines, then the Node
 * shim on the same bytes (a start on a loaded machine, one request with the shim's 2 s
 * timeout, a spool replay of at most 1 s). Every timeout an installed hook declares is
 * above it, so no agent cancels a hook that is still keeping its promises.
 */
export const HOOK_WORST_CASE_SECONDS =
  FAST_PATH_DEADLINES.stdin + FAST_PATH_DEADLINES.answer + 1 + DEFAULTS.shimTimeoutMs / 1000 + 1;

/** What the launcher runs a hook with. */
export interface LauncherOptions {
  /**
   * The Node that runs the hook scripts in `<data dir>/bin/` (init's choice); absent for a
   * launcher that runs `kiro-learn-shim` from the PATH instead (the Claude Code plugin's).
   */
  node?: NodeChoice;
  /**
   * curl for the fast path: an absolute path (init found it), or a bare name looked up on
   * the PATH at each run; absent: every hook runs the Node shim, as before the fast path.
   */
  curl?: string;
  /**
   * bash ≥ 4.4 with `/dev/tcp` (init checked it), by absolute path: the fast path's first
   * choice, with curl as the second. bash and one `cat` start in a fraction of curl's time
   * (curl loads some thirty shared libraries at every start).
   */
  bash?: string;
  /** The `cat` the bash fast path runs, by absolute path (init's); default: from the PATH. */
  cat?: string;
}

/**
 * The hook launcher. Hook commands read it into their own shell (`.`), so a hook costs one
 * shell, no shell more; run as a program it works the same. Every path out of it exits 0
 * and prints nothing but the agent's context (a hook must never break the agent, even after
 * `uninstall --purge` removed the scripts).
 *
 * Fast path, when the data dir's collector is up (its PID file names a loopback port) and
 * curl is there: one curl process reads stdin into a private file in `<data dir>/tmp/`
 * (EOF, or the stdin deadline), posts those bytes to `POST /v1/hooks/<surface>`, where the
 * collector maps them with the same agent modules as the shim, stores the event, deletes
 * the file (one process less for the hook) and answers with what the agent reads, which
 * the launcher prints. No Node starts.
 *
 * Otherwise, or when curl fails, times out, or gets anything but the collector's marked
 * 200, the Node shim runs on the same bytes (it spools, starts the collector, never blocks).
 * Hooks whose environment changes what the shim does (`KIRO_LEARN_CAPTURE`,
 * `KIRO_LEARN_ACTOR`, `KIRO_LEARN_TOKEN`, another `KIRO_LEARN_HOST`/`PORT`), a terminal on
 * stdin, legacy Kiro IDE hooks (their payload is in `USER_PROMPT`, their stdin never
 * closes) and data dirs whose path a `file:` URL cannot carry as it is go to the shim
 * directly.
 *
 * On Node < 22, which loads NODE_EXTRA_CA_CERTS eagerly at start-up (hooks never use TLS),
 * the variable is moved aside for the shim and put back for the collector it may start.
 */
export function hookLauncher(options: LauncherOptions): string {
  const { node, curl, bash, cat } = options;
  const runs = node
    ? `the hook script runs on Node ${node.version}`
    : 'kiro-learn-shim (from the PATH) runs';
  const how = bash ? `bash${curl ? ' (or curl)' : ''} posts the payload` : 'curl posts the payload';
  const head = `#!/bin/sh
# kiro-learn hook launcher, written by \`kiro-learn init\` (run it again to change it).
# Collector up: ${how} to it and prints its answer, no Node starts.
# Otherwise, or if that fails, ${runs} with the same bytes.
# Every path exits 0. Hook commands set kl_bin and read this file with "."; run
# directly, it finds its own dir.
`;
  const script = node
    ? `s="\${kl_bin:-\${0%/*}}/kiro-learn-$1.cjs"
[ -f "$s" ] || exit 0
`
    : '';
  const ca = caCertsAside(node?.version);
  const command = node ? `${shellQuote(node.path)} "$s"` : 'kiro-learn-shim';
  const found = node
    ? `[ -x ${shellQuote(node.path)} ]`
    : 'command -v kiro-learn-shim >/dev/null 2>&1';
  // After a fast path that failed, the shim reads the bytes curl (or cat) kept; the shell
  // waits to delete them (a rare path: one process more is fine there).
  const after = `if [ -n "$kl_x" ]; then
  [ -f "$kl_t" ] && ${found} && ${command} "$@" <"$kl_t"
  rm -f "$kl_t"
  exit 0
fi
`;
  const shift = node ? 'shift\n' : '';
  const fast = curl || bash ? fastPath({ curl, bash, cat, fallback: shift + ca + after }) : '';
  const run = `${shift}${ca}${curl || bash ? after : ''}${found} || exit 0
exec ${command} "$@"
`;
  return head + script + fast + run;
}

/**
 * Makes the directory the launcher keeps payloads in while it posts them (`<data>/tmp`,
 * 0700 like the data dir) and deletes payloads older than `maxAgeMs` that a killed hook
 * left behind (each holds a hook's unscrubbed payload: none may stay). Never throws;
 * returns how many were deleted.
 */
export function prepareHookTmp(home: string, now: number = Date.now(), maxAgeMs = 600_000): number {
  const dir = join(home, 'tmp');
  let deleted = 0;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(dir)) {
      if (!/^hook\.\d+$/.test(name)) continue;
      const file = join(dir, name);
      try {
        if (now - statSync(file).mtimeMs > maxAgeMs) {
          rmSync(file, { force: true });
          deleted++;
        }
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // an unwritable data dir: hooks take the Node path, which needs no tmp dir
  }
  return deleted;
}

/**
 * Shell lines that move NODE_EXTRA_CA_CERTS aside for a Node older than 22, which loads
 * the file eagerly at start-up (100-150 ms) though a hook or the MCP server never uses TLS;
 * `KIRO_LEARN_NODE_EXTRA_CA_CERTS` keeps it for a collector they start. Empty on Node 22+.
 */
export function caCertsAside(nodeVersion: string | undefined): string {
  if (nodeVersion === undefined || atLeast(nodeVersion, '22.0.0')) return '';
  return `if [ -n "\${NODE_EXTRA_CA_CERTS-}" ]; then
  KIRO_LEARN_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
  export KIRO_LEARN_NODE_EXTRA_CA_CERTS
  unset NODE_EXTRA_CA_CERTS
fi
`;
}

/**
 * The Claude Code plugin's launcher (it ships in the plugin's `hooks/`): the fast path with
 * curl from the PATH, else `kiro-learn-shim` from the PATH, else nothing. Generated from
 * the same template, so the plugin's hooks keep every promise init's do.
 */
export function pluginLauncher(): string {
  return hookLauncher({ curl: 'curl' }).replace(
    'written by `kiro-learn init` (run it again to change it)',
    'shipped with the Claude Code plugin (claude-plugin/hooks/)',
  );
}

/** The command each of the plugin's hooks runs: its launcher, read into the hook's shell. */
export function pluginHookCommand(script: ShimSurface): string {
  return `kl_bin="\${CLAUDE_PLUGIN_ROOT}/hooks"; [ -f "$kl_bin/${HOOK_LAUNCHER}" ] && set -- ${shellQuote(script)} && . "$kl_bin/${HOOK_LAUNCHER}"; exit 0`;
}

/**
 * The MCP launcher: the MCP server of this installation, on the Node chosen by the hooks'
 * rule (a stable Node on the PATH, never a checkout's private one while another qualifies),
 * with NODE_EXTRA_CA_CERTS moved aside as the hook launcher does.
 */
export function mcpLauncher(launch: McpLaunch): string {
  return `#!/bin/sh
# kiro-learn MCP server launcher, written by \`kiro-learn init\` (run it again to change it).
${caCertsAside(launch.nodeVersion)}exec ${[launch.command, ...launch.args].map(shellQuote).join(' ')} "$@"
`;
}

/**
 * The command a hook configuration runs. `portable`: for files teams commit, naming the
 * data dir through `$KIRO_LEARN_HOME`/`$HOME`; otherwise the absolute launcher path. The
 * test keeps the command at exit 0 when kiro-learn is not installed (a teammate without
 * it, or after a purge).
 */
export function hookCommand(
  data: string,
  script: ShimSurface,
  args: readonly string[],
  portable: boolean,
): string {
  const words = [script, ...args].map(shellQuote).join(' ');
  const bin = portable ? `"${PORTABLE_DATA_DIR}/bin"` : shellQuote(join(data, 'bin'));
  return `kl_bin=${bin}; [ -f "$kl_bin/${HOOK_LAUNCHER}" ] && set -- ${words} && . "$kl_bin/${HOOK_LAUNCHER}"; exit 0`;
}

/**
 * The line a committed MCP registration prints where kiro-learn is not installed: what a
 * teammate's agent shows in its MCP log instead of a bare "exit 127".
 */
export const MCP_MISSING =
  'kiro-learn MCP server: kiro-learn is not installed on this machine; install it (npm install -g kiro-learn) and run kiro-learn init in this project';

/** How agents start the MCP server: through the launcher, found the portable way. */
export function mcpRegistration(
  data: string,
  portable: boolean,
): { command: string; args: string[] } {
  return portable
    ? {
        command: 'sh',
        args: [
          '-c',
          `m="${PORTABLE_DATA_DIR}/bin/${MCP_LAUNCHER}"; [ -x "$m" ] && exec "$m"; echo ${shellQuote(MCP_MISSING)} >&2; exit 1`,
        ],
      }
    : { command: join(data, 'bin', MCP_LAUNCHER), args: [] };
}
