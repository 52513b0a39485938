import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS } from '@kiro-learn/schema';
import { MAX_STDIN_BYTES, type ShimSurface } from '../hook.js';
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
 * The first line of every answer of `POST /v1/hooks/:surface`: the launcher prints what
 * follows it, and treats an answer without it (another program on the port) as no answer.
 */
export const FAST_PATH_MARK = 'kiro-learn-hook 1';

/**
 * The whole body of a `POST /v1/hooks/:surface` answer to a hook that sent its payload as a
 * file (`x-kiro-learn-payload-file`, the bash launcher's way): the collector has stored the
 * event and written what the hook prints into that file, in place of the payload. A
 * collector that knows no such header answers something else, and the hook runs the shim.
 */
export const FAST_PATH_FILE_MARK = 'kiro-learn-hook 1 answer-in-file';

/**
 * The launcher's deadlines, in seconds. Reading stdin ends at EOF or after `stdin` (the
 * shim's own bound: an agent that never closes stdin costs no more than it did); the
 * collector then has `answer` to answer (the shim's HTTP timeout). Past either, the Node
 * shim takes over with the same bytes. Every agent's declared hook timeout is above
 * their sum plus the fallback's own.
 */
export const FAST_PATH_DEADLINES = { stdin: 3, answer: 2 } as const;

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
  const { node, curl, bash } = options;
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
  const fast = curl || bash ? fastPath({ curl, bash, fallback: shift + ca + after }) : '';
  const run = `${shift}${ca}${curl || bash ? after : ''}${found} || exit 0
exec ${command} "$@"
`;
  return head + script + fast + run;
}

/**
 * What the collector's PID file says when hooks may post to it (it listens on loopback and
 * asks no token): the launcher looks for it with a shell pattern.
 */
export const PID_FILE_HOOKS = '"hooks":true';

/**
 * The fast path's shell: builtins only (no process) until bash or curl, so a hook that
 * takes the Node path costs what it did. kl_-prefixed names: the file runs in the hook
 * command's own shell. `fallback`: the launcher's own lines that run the shim on the kept
 * bytes (bash replaces the shell, so it runs them itself).
 */
function fastPath(options: { curl?: string; bash?: string; fallback: string }): string {
  const { curl, bash, fallback } = options;
  const bin = curl && (curl.includes('/') ? shellQuote(curl) : curl);
  const curlFound =
    curl && (curl.includes('/') ? `[ -x ${bin} ]` : `command -v ${bin} >/dev/null 2>&1`);
  const bashFound = bash && `[ -x ${shellQuote(bash)} ]`;
  const found = [bashFound, curlFound].filter(Boolean).join(' || ');
  const post = [
    bash ? bashPost(bash, fallback) : '',
    curl ? curlPost(bin!, bash !== undefined ? curlFound : undefined) : '',
  ].join('');
  return `kl_d=\${KIRO_LEARN_HOME:-$HOME/.kiro-learn}
kl_t=$kl_d/tmp/hook.$$
kl_j=
kl_x=
if [ "$1" != kiro-ide ] && [ ! -t 0 ] && { ${found}; } &&
  [ -z "\${KIRO_LEARN_CAPTURE-}\${KIRO_LEARN_ACTOR-}\${KIRO_LEARN_TOKEN-}" ] &&
  read -r kl_j 2>/dev/null <"$kl_d/collector.pid" && case $kl_j in *'${PID_FILE_HOOKS}'*) ;; *) false ;; esac; then
  kl_p=\${kl_j#*\\"port\\":}
  kl_p=\${kl_p%%[!0-9]*}
  kl_h=\${kl_j#*\\"host\\":\\"}
  kl_h=\${kl_h%%\\"*}
  kl_q=/v1/hooks/$1?
  kl_a=
  for kl_w; do
    case $kl_w in '' | *[!a-z0-9-]*) kl_p= ;; esac
    [ -n "$kl_a" ] && kl_q="\${kl_q}arg=$kl_w&"
    kl_a=1
  done
  case $kl_h in ::1) kl_o="[::1]:$kl_p" ;; 127.0.0.1 | localhost) kl_o="$kl_h:$kl_p" ;; *) kl_p= ;; esac
  kl_u="http://$kl_o$kl_q"
  case $kl_t$PWD in *"
"* | *"\r"*) kl_p= ;; esac
  case $kl_t in *[!A-Za-z0-9/._~+-]*) kl_p= ;; esac
  if [ -n "$kl_p" ] && [ "\${KIRO_LEARN_PORT:-$kl_p}" = "$kl_p" ] &&
    [ "\${KIRO_LEARN_HOST:-$kl_h}" = "$kl_h" ] && true 2>/dev/null >"$kl_t"; then
    kl_x=1
${post}  fi
fi
`;
}

/**
 * One curl reads stdin into the private file (EOF, or the stdin deadline), then posts
 * those bytes and prints the collector's marked answer.
 */
function curlPost(bin: string, guard: string | undefined): string {
  // `ulimit -f` (512-byte blocks in dash and in bash as sh) stops curl's copy of stdin at
  // the shim's own bound: an agent that streams gigabytes for the stdin deadline fills no
  // disk (curl ends on SIGXFSZ; the shim then reads the cut copy and records nothing, as
  // it records nothing of a payload over that bound). A builtin in the subshell curl runs
  // in, so it costs no process and limits nothing else.
  const { stdin, answer } = FAST_PATH_DEADLINES;
  const body = `kl_r=$(ulimit -f ${MAX_STDIN_BYTES / 512} 2>/dev/null; ${bin} -q -s --noproxy '*' -m ${stdin} -T - "file://$kl_t" --next -s --noproxy '*' -m ${answer} \\
  -H 'content-type: application/json' -H 'expect:' -H "x-kiro-learn-cwd: $PWD" -H "x-kiro-learn-spill: hook.$$" \\
  -X POST -T "$kl_t" -w '%{http_code}' "$kl_u")
kl_c=$?
case $kl_c$kl_r in
"0${FAST_PATH_MARK}
"*200)
  kl_r=\${kl_r%200}
  printf '%s' "\${kl_r#*
}"
  exit 0
  ;;
esac
KIRO_LEARN_FAST_PATH=$kl_c
export KIRO_LEARN_FAST_PATH
`;
  // Lines that continue a quoted newline stay where they are.
  const indent = (text: string, by: string) => text.replace(/^(?!"\*200\)|}"$)(.)/gm, `${by}$1`);
  return guard ? `    if ${guard}; then\n${indent(body, '      ')}    fi\n` : indent(body, '    ');
}

/**
 * The bash fast path, in place of the shell (same process): one `cat` copies stdin into
 * the private file (EOF, or the stdin deadline; `ulimit -f` in 1024-byte blocks, bash's
 * unit), the file is opened, and one request over bash's `/dev/tcp` names it
 * (`x-kiro-learn-payload-file`, no body). The collector answers `FAST_PATH_FILE_MARK` once
 * it has written what the hook prints into that file, which bash prints from the
 * descriptor it holds. Anything else: `fallback`, the shim on the same bytes (curl would
 * reach the same collector).
 */
function bashPost(bash: string, fallback: string): string {
  const { stdin, answer } = FAST_PATH_DEADLINES;
  // `--norc -p`: bash reads no startup file (not ~/.bashrc, which bash reads when stdin is
  // a socket, as Node-based agents give it; not $BASH_ENV), imports no functions and
  // ignores SHELLOPTS/BASHOPTS from the agent's environment; `set +o posix` undoes
  // POSIXLY_CORRECT (which would halve ulimit's unit). A timeout (status > 128) leaves cat
  // reading a pipe nobody will close: it is stopped. Otherwise it has exited and its PID
  // may be another process's already: left alone.
  const script = `set +o posix
kl_t=$1 kl_h=$2 kl_o=$3 kl_q=$4 s=$5
shift 5
exec 4< <(ulimit -f ${MAX_STDIN_BYTES / 1024} 2>/dev/null; exec cat 5>&1 >"$kl_t" 2>/dev/null)
kl_c=$!
IFS= read -r -t ${stdin} -u 4 kl_r
[ $? -gt 128 ] && kill "$kl_c" 2>/dev/null
exec 4<&-
kl_r=
KIRO_LEARN_FAST_PATH=7
if { exec 6<"$kl_t" 3<>"/dev/tcp/$kl_h/\${kl_o##*:}"; } 2>/dev/null; then
  printf 'POST %s HTTP/1.1\\r\\nHost: %s\\r\\nContent-Type: application/json\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\nx-kiro-learn-cwd: %s\\r\\nx-kiro-learn-payload-file: %s\\r\\n\\r\\n' "$kl_q" "$kl_o" "$PWD" "\${kl_t##*/}" >&3 2>/dev/null
  IFS= read -r -d '' -t ${answer} kl_r <&3
  [ $? -gt 128 ] && KIRO_LEARN_FAST_PATH=28
  exec 3<&-
  case $kl_r in
  "HTTP/1.1 200 "*$'\\r\\n\\r\\n${FAST_PATH_FILE_MARK}\\n')
    IFS= read -r -d '' kl_r <&6
    printf '%s' "$kl_r"
    exit 0
    ;;
  esac
  [ "$KIRO_LEARN_FAST_PATH" = 28 ] || KIRO_LEARN_FAST_PATH=22
fi
exec 6<&-
export KIRO_LEARN_FAST_PATH
kl_x=1
${fallback}`;
  return `    if ${`[ -x ${shellQuote(bash)} ]`}; then
      exec ${shellQuote(bash)} --norc -p -c ${shellQuote(script)} kiro-learn-hook "$kl_t" "$kl_h" "$kl_o" "$kl_q" "\${s-}" "$@"
    fi
`;
}

/** The curl a launcher's fast path runs, from its text; undefined: it has no fast path. */
export function launcherCurl(launcher: string): string | undefined {
  const quoted = /kl_r=\$\((?:ulimit -f \d+ 2>\/dev\/null; )?('(?:[^']|'\\'')*'|\S+) -q /.exec(
    launcher,
  )?.[1];
  return quoted?.startsWith("'") ? quoted.slice(1, -1).replaceAll(`'\\''`, "'") : quoted;
}

/** The bash a launcher's fast path runs, from its text; undefined: it has none. */
export function launcherBash(launcher: string): string | undefined {
  const quoted = /exec ('(?:[^']|'\\'')*'|\S+) --norc -p -c /.exec(launcher)?.[1];
  return quoted?.startsWith("'") ? quoted.slice(1, -1).replaceAll(`'\\''`, "'") : quoted;
}

/**
 * What a launcher's fast path runs now: its bash while that is there, else its curl;
 * undefined when it has neither (or what init found is gone).
 */
export function launcherTransport(launcher: string): string | undefined {
  const there = (path: string | undefined) => {
    if (!path?.includes('/')) return path;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      return undefined;
    }
  };
  return there(launcherBash(launcher)) ?? there(launcherCurl(launcher));
}

/**
 * Why a hook run with `env` takes the Node path, by the launcher's own rules (the same
 * tests in the same order, for \`kiro-learn doctor\`); empty when it tries the fast path.
 */
export function nodePathReasons(launcher: string, env: NodeJS.ProcessEnv): string[] {
  const found = [launcherBash(launcher), launcherCurl(launcher)].filter(
    (path): path is string => path !== undefined,
  );
  if (found.length === 0) {
    return [
      'the launcher has no fast path: init found neither bash (4.4 or newer, with /dev/tcp) nor curl on the PATH',
    ];
  }
  if (!launcherTransport(launcher)) {
    return [`${found.join(' and ')}, which init found, ${found.length > 1 ? 'are' : 'is'} gone`];
  }
  const set = ['KIRO_LEARN_CAPTURE', 'KIRO_LEARN_ACTOR', 'KIRO_LEARN_TOKEN'].filter(
    (name) => env[name],
  );
  if (set.length > 0) return [`${set.join(', ')} set: the shim applies it`];
  const data = env['KIRO_LEARN_HOME'] || `${env['HOME'] ?? ''}/.kiro-learn`;
  let pid: { host?: unknown; port?: unknown; hooks?: unknown };
  try {
    pid = JSON.parse(readFileSync(join(data, 'collector.pid'), 'utf8'));
  } catch {
    return ['the collector is not running (the shim spools and starts it)'];
  }
  if (pid.hooks !== true) {
    return [
      'the collector takes no hooks (it asks for a token, listens off loopback, or is an older release)',
    ];
  }
  const reasons: string[] = [];
  if (env['KIRO_LEARN_PORT'] && env['KIRO_LEARN_PORT'] !== String(pid.port)) {
    reasons.push(
      `KIRO_LEARN_PORT=${env['KIRO_LEARN_PORT']} is not the collector's port ${String(pid.port)}`,
    );
  }
  if (env['KIRO_LEARN_HOST'] && env['KIRO_LEARN_HOST'] !== pid.host) {
    reasons.push(`KIRO_LEARN_HOST=${env['KIRO_LEARN_HOST']} is not the collector's host`);
  }
  if (/[^A-Za-z0-9/._~+-]/.test(join(data, 'tmp'))) {
    reasons.push(
      `the data dir's path (${data}) has characters a file: URL cannot carry as they are`,
    );
  }
  try {
    if (!statSync(join(data, 'tmp')).isDirectory()) throw new Error('not a directory');
  } catch {
    reasons.push(`${join(data, 'tmp')} is missing (kiro-learn restart makes it)`);
  }
  return reasons;
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
