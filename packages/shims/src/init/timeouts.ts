import type { InstallSurface } from './detect.js';

/**
 * The timeout every hook kiro-learn installs declares, in seconds, per agent: below the
 * agent's own limit, so the agent never cancels a hook that is still within its budget,
 * and above what a hook can take (its stdin read, one request, a spool replay: the
 * launcher's and the shim's own deadlines stay under these values). `undefined`: the
 * agent has no per-hook timeout to declare; its own limit is in the comment.
 *
 * Each agent module writes the value in its agent's unit and field.
 */
export const HOOK_TIMEOUT_SECONDS: Readonly<Record<InstallSurface, number | undefined>> = {
  /**
   * Kiro v1 workspace hooks: `timeout`, seconds. Kiro CLI agent hooks: `timeout_ms`,
   * default 30 000 ms.
   */
  'kiro-cli': 10,
  'kiro-ide': 10,
  /**
   * Claude Code: `timeout`, seconds; command hooks default to 600 s, UserPromptSubmit to
   * 30 s; `SessionEnd` hooks share a 1.5 s budget on exit, which a longer per-hook
   * `timeout` raises, up to 60 s (code.claude.com hooks reference;
   * anthropics/claude-code#33706).
   */
  'claude-code': 10,
  /** Codex: `timeout`, seconds (default 600; SessionEnd and Interrupt, not used here, are capped at 3). */
  codex: 10,
  /** Gemini CLI: `timeout`, milliseconds, default 60 000. */
  'gemini-cli': 10,
  /** Cursor: `timeout`, seconds; cursor-agent runs hooks with a 60 s default. */
  cursor: 10,
  /** Copilot CLI: `timeoutSec` (alias `timeout`), seconds, default 30. */
  'copilot-cli': 10,
  /** VS Code agent mode: `timeout`, seconds, default 30 (the same file as Copilot CLI). */
  vscode: 10,
  /** Cline: hooks are executable files with no timeout setting. */
  cline: undefined,
  /** OpenCode: a plugin, not a hook command; the plugin bounds nothing itself, the hook's own deadlines do. */
  opencode: undefined,
  /** Augment: `timeout`, milliseconds, default 60 000. */
  augment: 10,
  /** Windsurf: hooks.json entries have no timeout setting. */
  windsurf: undefined,
};
