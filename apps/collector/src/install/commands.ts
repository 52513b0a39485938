/**
 * The three commands `kiro-learn install` writes into a directory on the PATH. Each is a
 * small shell script naming an absolute Node and an absolute script of the installed
 * program, so neither a checkout moving nor a `nvm use` changes what runs.
 */
import { caCertsAside, shellQuote } from '@kiro-learn/shims';

/** Marks a file as written by `kiro-learn install`: `uninstall --self` removes only these. */
export const COMMAND_MARK = '# written by `kiro-learn install`';

export interface CommandNodes {
  /** The Node the CLI and collector run on (≥ 22). */
  cli: { path: string; version: string };
  /** The Node the hooks and the MCP server run on (≥ 20.16: the fastest start). */
  hooks: { path: string; version: string };
}

/** name → script text, for `program` (the installed `node_modules/kiro-learn` dir). */
export function commandScripts(
  program: string,
  nodes: CommandNodes,
  from: string,
): Record<string, string> {
  const head = (what: string) => `#!/bin/sh
# ${what}
${COMMAND_MARK} from ${from}; remove with: kiro-learn uninstall --self
`;
  const cli = shellQuote(nodes.cli.path);
  const hooks = shellQuote(nodes.hooks.path);
  return {
    'kiro-learn': `${head('kiro-learn: the CLI and the collector')}n=${cli}
[ -x "$n" ] || n=node
exec "$n" ${shellQuote(`${program}/dist/cli.js`)} "$@"
`,
    // A hook never breaks the agent: with the program or its Node gone, exit 0, say nothing.
    'kiro-learn-shim': `${head('kiro-learn-shim <agent>: the hook script agents run')}s=${shellQuote(`${program}/bin/kiro-learn-shim.cjs`)}
[ -f "$s" ] && [ -x ${hooks} ] || exit 0
${caCertsAside(nodes.hooks.version)}exec ${hooks} "$s" "$@"
`,
    'kiro-learn-mcp': `${head('kiro-learn-mcp: the MCP server agents start')}${caCertsAside(nodes.hooks.version)}exec ${hooks} ${shellQuote(`${program}/bin/kiro-learn-mcp.js`)} "$@"
`,
  };
}
