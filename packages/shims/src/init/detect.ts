/** The agents `init` can install into (each has an installer in its agent module). */
export const INSTALL_SURFACES = [
  'kiro-cli',
  'kiro-ide',
  'claude-code',
  'codex',
  'gemini-cli',
  'cursor',
  'copilot-cli',
  'vscode',
  'cline',
  'opencode',
  'augment',
  'windsurf',
] as const;
export type InstallSurface = (typeof INSTALL_SURFACES)[number];
