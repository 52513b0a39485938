import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { MAX_STDIN_BYTES } from '../hook.js';
import { shellQuote } from './quote.js';

// The hook launcher's fast path (no Node while the collector is up): the protocol's marks
// and deadlines, the shell that takes it (bash over /dev/tcp, else curl), and what
// `kiro-learn doctor` reads back from an installed launcher. The rest of the launcher (the
// Node shim it falls back to, the MCP launcher, hook commands) is in launcher.ts.

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
export function fastPath(options: {
  curl?: string;
  bash?: string;
  cat?: string;
  fallback: string;
}): string {
  const { curl, bash, cat, fallback } = options;
  const bin = curl && (curl.includes('/') ? shellQuote(curl) : curl);
  const curlFound =
    curl && (curl.includes('/') ? `[ -x ${bin} ]` : `command -v ${bin} >/dev/null 2>&1`);
  const catFound = cat?.includes('/') ? ` && [ -x ${shellQuote(cat)} ]` : '';
  const bashFound = bash && `[ -x ${shellQuote(bash)} ]${catFound}`;
  const found = [bashFound, curlFound].filter(Boolean).join(' || ');
  const post = [
    bash ? bashPost(bashFound!, bash, cat, fallback) : '',
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
function bashPost(found: string, bash: string, cat: string | undefined, fallback: string): string {
  const { stdin, answer } = FAST_PATH_DEADLINES;
  // `--norc -p`: bash reads no startup file (not ~/.bashrc, which bash reads when stdin is
  // a socket, as Node-based agents give it; not $BASH_ENV), imports no functions and
  // ignores SHELLOPTS/BASHOPTS from the agent's environment; `set +o posix` undoes
  // POSIXLY_CORRECT (which would halve ulimit's unit). SIGPIPE is ignored, as curl does: a
  // collector that closes the connection before bash has written (it is stopping) must
  // send the hook to the shim, not kill it with status 141. A timeout (status > 128) leaves cat
  // reading a pipe nobody will close: it is stopped. Otherwise it has exited and its PID
  // may be another process's already: left alone.
  const script = `set +o posix
trap '' PIPE
kl_t=$1 kl_h=$2 kl_o=$3 kl_q=$4 s=$5
shift 5
exec 4< <(ulimit -f ${MAX_STDIN_BYTES / 1024} 2>/dev/null; exec ${cat ? shellQuote(cat) : 'cat'} 5>&1 >"$kl_t" 2>/dev/null)
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
  return `    if ${found}; then
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

/** Executable files called `name` in the PATH's absolute directories, in PATH order. */
function* onPath(name: string, env: NodeJS.ProcessEnv): Generator<string> {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue;
    }
    yield path;
  }
}

/**
 * The curl the hooks' fast path runs: the first on the PATH that answers `--version`, by
 * absolute path (a hook then looks nothing up). Undefined when there is none: hooks run
 * the Node shim, as they always could.
 */
export function findCurl(env: NodeJS.ProcessEnv): string | undefined {
  for (const path of onPath('curl', env)) {
    const out = spawnSync(path, ['--version'], { encoding: 'utf8', env: {}, timeout: 5000 });
    if (out.status === 0 && /^curl \d/.test(out.stdout ?? '')) return path;
  }
  return undefined;
}

/**
 * What a bash must do for the fast path: be 4.4 or newer (`$!` of a process substitution)
 * and open TCP sockets through `/dev/tcp` (a build option some distributions turned off:
 * such a bash opens a file of that name, which does not exist). Port 1 of loopback is
 * almost always closed: a refusal proves the feature as well as a connection does.
 */
const BASH_CHECK = `[ "\${BASH_VERSINFO[0]}" -gt 4 ] || { [ "\${BASH_VERSINFO[0]}" -eq 4 ] && [ "\${BASH_VERSINFO[1]}" -ge 4 ]; } || exit 3
exec 3<>/dev/tcp/127.0.0.1/1`;

/**
 * The bash the hooks' fast path runs (see BASH_CHECK), by absolute path; undefined when
 * there is none: the fast path then runs curl.
 */
export function findBash(env: NodeJS.ProcessEnv): string | undefined {
  for (const path of onPath('bash', env)) {
    const out = spawnSync(path, ['--norc', '-p', '-c', BASH_CHECK], {
      encoding: 'utf8',
      env: { LC_ALL: 'C' },
      timeout: 5000,
    });
    if (out.error || out.status === 3 || out.status === null) continue;
    if (out.status === 0 || !/No such file or directory/.test(out.stderr ?? '')) return path;
  }
  return undefined;
}

/**
 * The `cat` the bash fast path copies stdin with, by absolute path: an agent may run its
 * hooks with a PATH that has none (bash would then post an empty copy, and the event would
 * be lost). Undefined when there is none: no bash fast path.
 */
export function findCat(env: NodeJS.ProcessEnv): string | undefined {
  for (const path of onPath('cat', env)) return path;
  return undefined;
}
