#!/usr/bin/env node
// kiro-learn-mcp: the stdio MCP server an agent starts (registered by `kiro-learn init`).
// stdout belongs to the protocol, so anything for people goes to stderr.
import { resolveConfig } from './config.js';
import { runStdioServer } from './server.js';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stderr.write(
    'usage: kiro-learn-mcp [--project DIR]\n' +
      'Serves kiro-learn memory tools over stdio to an MCP client (the agent starts it).\n' +
      'Reaches the collector at KIRO_LEARN_HOST/KIRO_LEARN_PORT or settings.json in KIRO_LEARN_HOME.\n',
  );
  process.exit(0);
}
const flag = args.indexOf('--project');
const projectDir = flag >= 0 ? args[flag + 1] : undefined;
if (flag >= 0 && !projectDir) {
  process.stderr.write('kiro-learn-mcp: --project needs a directory, e.g. --project .\n');
  process.exit(2);
}
try {
  await runStdioServer(resolveConfig(projectDir ? { projectDir } : {}));
} catch (error) {
  process.stderr.write(
    `kiro-learn-mcp: could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
