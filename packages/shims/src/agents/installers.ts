import type { AgentInstaller } from '../init/installer.js';
import { augmentInstaller } from './augment/install.js';
import { claudeCodeInstaller } from './claude-code/install.js';
import { clineInstaller } from './cline/install.js';
import { codexInstaller } from './codex/install.js';
import { copilotCliInstaller, vscodeInstaller } from './copilot/install.js';
import { cursorInstaller } from './cursor/install.js';
import { geminiInstaller } from './gemini-cli/install.js';
import { kiroCliInstaller, kiroIdeInstaller } from './kiro/install.js';
import { openCodeInstaller } from './opencode/install.js';
import { windsurfInstaller } from './windsurf/install.js';

/** Every agent init can install into, in the order their files are written. */
export const INSTALLERS: readonly AgentInstaller[] = [
  kiroCliInstaller,
  kiroIdeInstaller,
  claudeCodeInstaller,
  codexInstaller,
  geminiInstaller,
  cursorInstaller,
  copilotCliInstaller,
  vscodeInstaller,
  clineInstaller,
  openCodeInstaller,
  augmentInstaller,
  windsurfInstaller,
];
