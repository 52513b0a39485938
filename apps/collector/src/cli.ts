#!/usr/bin/env node
// The `kiro-learn` executable: dispatches to the command registry. The Node version is
// checked before anything else loads: the SQLite driver's binary needs Node 22, and on an
// older Node it would crash the process instead of saying why.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(
    `kiro-learn needs Node.js 22 or newer; this is ${process.version}. Install a current Node.js (https://nodejs.org, or \`npm i -g node@22\`), then run the command again.\n`,
  );
  process.exit(1);
}
const { runCli } = await import('./commands/index.js');

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
