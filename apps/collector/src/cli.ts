#!/usr/bin/env node
// The `kiro-learn` executable: dispatches to the command registry.
import { runCli } from './commands/index.js';

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
