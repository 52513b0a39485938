import type { AgentInstaller } from '../init/installer.js';
import { claudeCodeInstaller } from './claude-code/install.js';
import { kiroCliInstaller, kiroIdeInstaller } from './kiro/install.js';

/** Every agent init can install into, in the order their files are written. */
export const INSTALLERS: readonly AgentInstaller[] = [
  kiroCliInstaller,
  kiroIdeInstaller,
  claudeCodeInstaller,
];
