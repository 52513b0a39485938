import { join } from 'node:path';
import type { ShimSurface } from '../hook.js';
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
 * The hook launcher init writes into `<data dir>/bin/`: it runs a hook script with the
 * Node init chose. Hook commands read it into their own shell (`.`), so a hook costs one
 * shell and one Node, no shell more; run as a program it works the same. Every path out
 * of it exits 0 and prints nothing (a hook must never break the agent, even after
 * `uninstall --purge` removed the scripts). On Node < 22, which loads
 * NODE_EXTRA_CA_CERTS eagerly at start-up (hooks never use TLS), the variable is moved
 * aside for the hook and put back for the collector it may start.
 */
export function hookLauncher(node: NodeChoice): string {
  const ca = atLeast(node.version, '22.0.0')
    ? ''
    : `if [ -n "\${NODE_EXTRA_CA_CERTS-}" ]; then
  KIRO_LEARN_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
  export KIRO_LEARN_NODE_EXTRA_CA_CERTS
  unset NODE_EXTRA_CA_CERTS
fi
`;
  return `#!/bin/sh
# kiro-learn hook launcher, written by \`kiro-learn init\` (run it again to change it).
# Runs one hook script with Node ${node.version}; a missing script or Node exits 0.
# Hook commands set kl_bin and read this file with "."; run directly, it finds its own dir.
s="\${kl_bin:-\${0%/*}}/kiro-learn-$1.cjs"
[ -f "$s" ] && [ -x ${shellQuote(node.path)} ] || exit 0
shift
${ca}exec ${shellQuote(node.path)} "$s" "$@"
`;
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

/** How agents start the MCP server: through the launcher, found the portable way. */
export function mcpRegistration(
  data: string,
  portable: boolean,
): { command: string; args: string[] } {
  return portable
    ? { command: 'sh', args: ['-c', `exec "${PORTABLE_DATA_DIR}/bin/${MCP_LAUNCHER}"`] }
    : { command: join(data, 'bin', MCP_LAUNCHER), args: [] };
}
