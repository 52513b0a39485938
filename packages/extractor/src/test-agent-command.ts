import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Behaviours of the scripted ACP test agent (see its file header). */
export const TEST_AGENT_MODES = [
  'records',
  'instant',
  'skip',
  'garbage',
  'flaky',
  'slow',
  'hang',
  'stubborn',
  'crash',
  'exit',
  'script',
] as const;
export type TestAgentMode = (typeof TEST_AGENT_MODES)[number];

/** Absolute path of the test agent script (built `.js`, or the `.ts` source in a checkout). */
export function testAgentPath(): string {
  const built = fileURLToPath(new URL('./test-agent.js', import.meta.url));
  return existsSync(built) ? built : built.replace(/\.js$/, '.ts');
}

/**
 * argv that starts the test agent in `mode` with this Node: pass it as the ACP extractor's
 * `command`. `kiro-learn doctor` uses `instant` to check the ACP path end to end.
 */
export function testAgentCommand(mode: TestAgentMode = 'records'): string[] {
  return [process.execPath, '--disable-warning=ExperimentalWarning', testAgentPath(), mode];
}
