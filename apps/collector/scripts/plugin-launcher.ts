// Writes the Claude Code plugin's hook launcher (claude-plugin/hooks/kiro-learn-hook) from
// the one launcher template in @kiro-learn/shims: curl to the collector while it is up,
// else kiro-learn-shim from the PATH, else nothing; exit 0 always. `--check` only compares
// (the plugin test runs the same comparison). Needs @kiro-learn/shims built.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pluginLauncher } from '@kiro-learn/shims';

const file = fileURLToPath(new URL('../claude-plugin/hooks/kiro-learn-hook', import.meta.url));
const text = pluginLauncher();
let current: string | undefined;
try {
  current = readFileSync(file, 'utf8');
} catch {
  current = undefined;
}
if (process.argv.includes('--check')) {
  if (current !== text) {
    process.stderr.write(
      `${file} is out of date: run node apps/collector/scripts/plugin-launcher.ts\n`,
    );
    process.exit(1);
  }
} else if (current !== text) {
  writeFileSync(file, text, { mode: 0o755 });
  process.stdout.write(`wrote ${file}\n`);
}
