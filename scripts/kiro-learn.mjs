#!/usr/bin/env node
// `pnpm kiro-learn <command>` (and `./pnpmw kiro-learn <command>`): the kiro-learn CLI of
// this checkout. Builds what it needs first (turbo: nothing to do when nothing changed),
// then runs the CLI in this process. A build that takes a while says so on one line with
// its time; its output is shown only when it fails.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** A build that finishes sooner than this prints nothing (nothing changed: turbo's cache). */
const QUIET_MS = 5000;

function build() {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(
      'turbo',
      ['run', 'build', '--filter=kiro-learn...', '--output-logs=errors-only'],
      {
        cwd: root,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    let said = false;
    const slow = setTimeout(() => {
      said = true;
      process.stderr.write('[kiro-learn] building… ');
    }, QUIET_MS);
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code) => {
      clearTimeout(slow);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (code === 0) {
        if (said) process.stderr.write(`done in ${seconds} s\n`);
        resolve(true);
        return;
      }
      process.stderr.write(
        `${said ? '' : '[kiro-learn] building… '}failed (exit ${code}); its output:\n${output}`,
      );
      resolve(false);
    });
  });
}

if (!(await build())) process.exit(1);
// pnpm runs scripts in the workspace root; the CLI works where it was started (`init` in a
// project, `search` for the project around it).
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
// The CLI reads its arguments from process.argv.slice(2): the same as this script's.
await import('../apps/collector/dist/cli.js');
